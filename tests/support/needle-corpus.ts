/**
 * The "needle in a haystack" corpus of the knowledge search tests and bench: a large employee handbook
 * in plain English (the haystack) and a short refund policy (the needle) in the same application. The
 * handbook shares the query's common words ("how", "many", "days", "have", "to", "return") with the
 * needle, as a real handbook would, so only the needle answers "how many days do I have to return a
 * widget" while thousands of chunks look faintly alike to it. Deterministic: every run sees the same text.
 */

export const NEEDLE_QUERY = 'how many days do I have to return a widget';

export const NEEDLE_FILE_NAME = 'refund-policy.md';

/** The needle document, one chunk at the default chunk size; the second paragraph answers the query. */
export const NEEDLE_TEXT = [
  '# Refund policy',
  'How long do I have to return a widget? You have 30 days from delivery to return a widget for a full refund. Returned widgets must be unused and in their original packaging; we pay the return shipping for faulty widgets.',
  'Refunds reach the original payment method within 5 business days of the widget arriving at our warehouse.',
].join('\n\n');

/**
 * More needles for the bench's recall: small documents of their own subject, each with the question it
 * answers. Each is one chunk; the first is the refund policy above.
 */
export const NEEDLES: ReadonlyArray<{ fileName: string; text: string; query: string }> = [
  { fileName: NEEDLE_FILE_NAME, text: NEEDLE_TEXT, query: NEEDLE_QUERY },
  {
    fileName: 'shipping-canada.md',
    text: '# Shipping to Canada\n\nParcels to Canada leave our warehouse every Tuesday and arrive in 6 to 9 business days. Canadian customs may charge import duties on orders above 150 dollars; the courier collects them on delivery.',
    query: 'how long does shipping to Canada take',
  },
  {
    fileName: 'gadget-warranty.md',
    text: '# Gadget warranty\n\nEvery gadget carries a two-year warranty against manufacturing defects. Keep the receipt: a warranty claim needs the serial number printed under the battery cover.',
    query: 'is there a warranty on my gadget',
  },
  {
    fileName: 'portal-password.md',
    text: '# Resetting your customer portal password\n\nOn the portal sign-in page choose "Forgot password" and enter your e-mail address. The reset link expires after 30 minutes; request another if it has.',
    query: 'I forgot my customer portal password',
  },
  {
    fileName: 'lisbon-store.md',
    text: '# Lisbon store\n\nOur Lisbon store on Rua Augusta opens Monday to Saturday from 10:00 to 19:00 and on Sundays from 11:00 to 17:00. It is closed on public holidays.',
    query: 'opening hours of the Lisbon store on Sunday',
  },
  {
    fileName: 'gift-cards.md',
    text: '# Gift cards\n\nGift cards never expire and can be spent online or in any store. A gift card cannot be exchanged for cash, and a lost gift card can be blocked by calling customer care with its number.',
    query: 'do gift cards expire',
  },
  {
    fileName: 'loyalty-points.md',
    text: '# Loyalty points\n\nYou earn one loyalty point per euro spent. Every 200 points turn into a 10 euro voucher, which is e-mailed to you and stays valid for six months.',
    query: 'how many loyalty points do I need for a voucher',
  },
  {
    fileName: 'account-deletion.md',
    text: '# Deleting your account\n\nTo delete your customer account and personal data, send a deletion request from the privacy page. We erase the data within 30 days and confirm by e-mail.',
    query: 'how can I delete my account and personal data',
  },
];

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const SUBJECTS = [
  'Employees', 'Managers', 'New starters', 'Team leads', 'Contractors', 'Part-time staff', 'Every member of staff', 'Interns',
  'Your manager', 'The people team', 'Supervisors', 'Remote workers', 'Shift workers', 'Department heads', 'Colleagues', 'You',
];
const VERBS = [
  'should record', 'must request', 'can take', 'have to report', 'may carry over', 'need to approve', 'are expected to plan', 'can ask for',
  'should submit', 'must complete', 'will receive', 'are entitled to', 'have to hand back', 'should review', 'must keep', 'can claim',
];
const OBJECTS = [
  'annual leave', 'sick leave', 'overtime hours', 'expense claims', 'training courses', 'the laptop and badge', 'parental leave', 'travel bookings',
  'timesheets', 'performance reviews', 'safety training', 'holiday requests', 'the security checklist', 'company equipment', 'pension contributions',
  'flexible working requests', 'conference tickets', 'mileage claims', 'jury service days', 'compassionate leave', 'the onboarding plan', 'payslips',
  'team budgets', 'access cards', 'the code of conduct', 'meal allowances', 'a desk booking', 'the first aid kit', 'probation goals', 'home office kit',
];
const CLAUSES = [
  'within 10 working days', 'before the end of the month', 'at least two weeks in advance', 'through the HR portal', 'in writing to HR',
  'as soon as possible', 'on the first day back', 'by the payroll cut-off date', 'after talking to the team', 'during the probation period',
  'within 5 days of the trip', 'once a quarter', 'before the notice period ends', 'when the manager agrees', 'every year in January',
  'for the days the policy allows', 'if they have worked a full year', 'unless the contract says otherwise',
];
const HEADINGS = [
  'Annual leave', 'Reporting an absence', 'Leaving the company', 'Working from home', 'Payslips and pay dates', 'Booking training',
  'Laptops and equipment', 'Sick pay', 'Travel for work', 'Claiming expenses', 'Health and safety', 'Performance reviews',
];

/** One handbook paragraph: a question heading and a few policy sentences, about 1,000 characters. */
function paragraph(random: () => number, section: number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const sentences: string[] = [`${section}. ${pick(HEADINGS)}.`];
  let length = sentences[0]!.length;
  while (length < 900) {
    const sentence = `${pick(SUBJECTS)} ${pick(VERBS)} ${pick(OBJECTS)} ${pick(CLAUSES)}, and ${pick(SUBJECTS).toLowerCase()} ${pick(VERBS)} ${pick(OBJECTS)} ${pick(CLAUSES)}.`;
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  return sentences.join(' ');
}

/** `count` chunk texts of the handbook (each one paragraph, as the chunker would cut it at 1,000 characters). */
export function handbookChunks(count: number, seed = 27): string[] {
  const random = seeded(seed);
  return Array.from({ length: count }, (_, i) => paragraph(random, i + 1));
}

/**
 * The console's shared English strings, in one place (an area keeps its own screen's strings in its
 * folder's `strings.ts`, so parallel work on areas never edits the same file).
 */
export const t = {
  product: 'AI Platform',
  console: 'Console',
  loading: 'Loading…',
  retry: 'Try again',
  cancel: 'Cancel',
  save: 'Save',
  saving: 'Saving…',
  delete: 'Delete',
  close: 'Close',
  copy: 'Copy',
  copied: 'Copied',
  edit: 'Edit',
  create: 'Create',
  signOut: 'Sign out',
  mainNav: 'Main',
  skipToContent: 'Skip to content',
  offline: 'The platform could not be reached. Check your connection.',
  notFound: 'Nothing here',
  notFoundBody: 'This page does not exist, or it belongs to someone else.',
  forbidden: 'Your role cannot do this.',
  paymentRequired: 'Your plan does not allow this.',
  paymentRequiredHint: 'Upgrade the plan, or save your own provider key to lift this limit.',
  paymentRequiredLink: 'See plans and billing',
  sessionExpired: 'Your session ended. Sign in again to continue.',
  signedOut: 'You are signed out.',
  application: 'Application',
  noApplications: 'No applications yet',
  createApplication: 'Create an application',
} as const;

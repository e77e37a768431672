import type { components } from '../../api/schema';

export type ApplicationInput = { name: string; description: string; slug?: string; allowedOrigins: string[] };
type Application = components['schemas']['Application'];

/** The form's text fields as the API's body: origins one per line, an empty slug left out. */
export function toApplicationInput(values: { name: string; description: string; slug: string; allowedOrigins: string }): ApplicationInput {
  const origins = values.allowedOrigins
    .split(/[\n,]/)
    .map((o) => o.trim())
    .filter(Boolean);
  const slug = values.slug.trim();
  return { name: values.name.trim(), description: values.description.trim(), ...(slug ? { slug } : {}), allowedOrigins: origins };
}

/** An application as the form's text fields. */
export function toApplicationForm(app?: Application): { name: string; description: string; slug: string; allowedOrigins: string } {
  return { name: app?.name ?? '', description: app?.description ?? '', slug: app?.slug ?? '', allowedOrigins: (app?.allowedOrigins ?? []).join('\n') };
}

import { Download, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyButton } from '../../components/CopyButton';
import { Field, TextArea } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { ErrorState, ErrorText, Loading } from '../../components/States';
import { fieldErrors } from '../../lib/errors';
import { mayManage, useDeleteSso, useSaveSso, useSsoConfig, useTeam, type SsoConfig, type SsoConfigInput } from './queries';
import { Reason, Section } from './Section';
import { s, sso } from './strings';

type Role = 'admin' | 'member' | 'viewer';
type Values = {
  protocol: 'oidc' | 'saml';
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  metadataXml: string;
  entityId: string;
  ssoUrl: string;
  certificate: string;
  mapEmail: string;
  mapName: string;
  mapGroups: string;
  roles: { group: string; role: Role }[];
  defaultRole: Role;
  allowedDomains: string;
  enabled: boolean;
  enforced: boolean;
};

const ROLES: Role[] = ['admin', 'member', 'viewer'];
/** Form fields by the API's field paths, so a 400's details land on the right input. */
const PATHS: Record<string, keyof Values> = {
  'oidc.issuer': 'issuer',
  'oidc.clientId': 'clientId',
  'oidc.clientSecret': 'clientSecret',
  'oidc.scopes': 'scopes',
  'saml.metadataXml': 'metadataXml',
  'saml.entityId': 'entityId',
  'saml.ssoUrl': 'ssoUrl',
  'saml.certificate': 'certificate',
  allowedDomains: 'allowedDomains',
  defaultRole: 'defaultRole',
  'attributeMapping.email': 'mapEmail',
  'attributeMapping.displayName': 'mapName',
  'attributeMapping.groups': 'mapGroups',
  'attributeMapping.roles': 'roles',
};

function valuesOf(config: SsoConfig | null): Values {
  const m = config?.attributeMapping ?? {};
  return {
    protocol: config?.protocol ?? 'oidc',
    issuer: config?.oidc?.issuer ?? '',
    clientId: config?.oidc?.clientId ?? '',
    clientSecret: '',
    scopes: config?.oidc?.scopes ?? 'openid email profile',
    metadataXml: '',
    entityId: config?.saml?.entityId ?? '',
    ssoUrl: config?.saml?.ssoUrl ?? '',
    certificate: config?.saml?.certificate ?? '',
    mapEmail: m.email ?? '',
    mapName: m.displayName ?? '',
    mapGroups: m.groups ?? '',
    roles: Object.entries(m.roles ?? {}).map(([group, role]) => ({ group, role: role as Role })),
    defaultRole: (config?.defaultRole as Role) ?? 'member',
    allowedDomains: (config?.allowedDomains ?? []).join('\n'),
    enabled: config?.enabled ?? true,
    enforced: config?.enforced ?? false,
  };
}

function inputOf(v: Values): SsoConfigInput {
  const mapping: NonNullable<SsoConfigInput['attributeMapping']> = {};
  if (v.mapEmail.trim()) mapping.email = v.mapEmail.trim();
  if (v.mapName.trim()) mapping.displayName = v.mapName.trim();
  if (v.mapGroups.trim()) mapping.groups = v.mapGroups.trim();
  const roles = v.roles.filter((r) => r.group.trim());
  if (roles.length) mapping.roles = Object.fromEntries(roles.map((r) => [r.group.trim(), r.role]));
  const common = {
    protocol: v.protocol,
    enabled: v.enabled,
    enforced: v.enforced,
    attributeMapping: mapping,
    allowedDomains: v.allowedDomains.split(/[\s,]+/).map((d) => d.trim()).filter(Boolean),
    defaultRole: v.defaultRole,
  };
  if (v.protocol === 'oidc')
    return { ...common, oidc: { issuer: v.issuer.trim(), clientId: v.clientId.trim(), scopes: v.scopes.trim(), ...(v.clientSecret ? { clientSecret: v.clientSecret } : {}) } };
  return {
    ...common,
    saml: v.metadataXml.trim() ? { metadataXml: v.metadataXml } : { entityId: v.entityId.trim(), ssoUrl: v.ssoUrl.trim(), certificate: v.certificate.trim() },
  };
}

function Endpoints({ config }: { config: SsoConfig }) {
  const e = config.endpoints;
  if (!e) return null;
  const rows = [
    [sso.loginUrl, e.login],
    ...(config.protocol === 'oidc' ? [[sso.redirectUri, e.oidcRedirectUri]] : [[sso.acsUrl, e.samlAcsUrl], [sso.spEntityId, e.samlEntityId]]),
  ].filter((r): r is [string, string] => !!r[1]);
  return (
    <Section id="sso-endpoints" title={sso.endpoints}>
      <dl className="ap-teams-endpoints">
        {rows.map(([label, value]) => (
          <div key={label} className="ap-teams-endpoint">
            <dt>{label}</dt>
            <dd>
              <code>{value}</code>
              <CopyButton value={value} label={`Copy ${label}`} />
            </dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}

function SsoForm({ slug, config, manage }: { slug: string; config: SsoConfig | null; manage: boolean }) {
  const save = useSaveSso(slug);
  const remove = useDeleteSso(slug);
  const [removing, setRemoving] = useState(false);
  const form = useForm<Values>({ values: valuesOf(config) });
  const roles = useFieldArray({ control: form.control, name: 'roles' });
  const protocol = form.watch('protocol');
  const errors = form.formState.errors;
  const submit = form.handleSubmit((v) =>
    save.mutate(inputOf(v), {
      onError: (error) => {
        const found = fieldErrors(error, Object.keys(PATHS));
        for (const [path, message] of Object.entries(found)) form.setError(PATHS[path]!, { message: message as string });
      },
    }),
  );
  const named = save.error ? Object.keys(fieldErrors(save.error, Object.keys(PATHS))).length > 0 : false;
  return (
    <form className="ap-stack" noValidate onSubmit={submit}>
      <fieldset className="ap-teams-fieldset ap-stack" disabled={!manage}>
        <Section id="sso-connection" title={config ? (config.protocol === 'oidc' ? sso.oidc : sso.saml) : sso.protocol}>
          {config ? null : <p className="ap-muted">{sso.none}</p>}
          <fieldset className="ap-teams-radio">
            <legend>{sso.protocol}</legend>
            <label>
              <input type="radio" value="oidc" {...form.register('protocol')} />
              {sso.oidc}
            </label>
            <label>
              <input type="radio" value="saml" {...form.register('protocol')} />
              {sso.saml}
            </label>
          </fieldset>
          {protocol === 'oidc' ? (
            <div className="ap-teams-grid">
              <Field label={sso.issuer} type="url" error={errors.issuer?.message} {...form.register('issuer', { required: `${sso.issuer} is required` })} />
              <Field label={sso.clientId} error={errors.clientId?.message} {...form.register('clientId', { required: `${sso.clientId} is required` })} />
              <Field
                label={sso.clientSecret}
                type="password"
                autoComplete="off"
                hint={config?.oidc?.clientSecretSet ? sso.clientSecretSet : sso.clientSecretNew}
                error={errors.clientSecret?.message}
                {...form.register('clientSecret', { validate: (x) => !!x || !!config?.oidc?.clientSecretSet || `${sso.clientSecret} is required` })}
              />
              <Field label={sso.scopes} hint={sso.scopesHint} error={errors.scopes?.message} {...form.register('scopes')} />
            </div>
          ) : (
            <>
              <div className="ap-actions">
                <a className="ap-button ap-button--secondary" href="/api/sso/saml/metadata" download="sp-metadata.xml">
                  <Download aria-hidden size={16} />
                  {sso.metadata}
                </a>
              </div>
              <TextArea label={sso.metadataXml} hint={sso.metadataXmlHint} rows={4} error={errors.metadataXml?.message} {...form.register('metadataXml')} />
              <div className="ap-teams-grid">
                <Field label={sso.entityId} error={errors.entityId?.message} {...form.register('entityId')} />
                <Field label={sso.ssoUrl} type="url" error={errors.ssoUrl?.message} {...form.register('ssoUrl')} />
              </div>
              <TextArea label={sso.certificate} rows={4} error={errors.certificate?.message} {...form.register('certificate')} />
            </>
          )}
        </Section>
        <Section id="sso-mapping" title={sso.mapping}>
          <div className="ap-teams-grid">
            <Field label={sso.mapEmail} placeholder="email" error={errors.mapEmail?.message} {...form.register('mapEmail')} />
            <Field label={sso.mapName} placeholder={protocol === 'oidc' ? 'name' : 'displayName'} error={errors.mapName?.message} {...form.register('mapName')} />
            <Field label={sso.mapGroups} placeholder="groups" error={errors.mapGroups?.message} {...form.register('mapGroups')} />
          </div>
          <h3>{sso.roleMapping}</h3>
          <p className="ap-muted">{sso.roleMappingBody}</p>
          {roles.fields.map((f, i) => (
            <div key={f.id} className="ap-teams-mapping">
              <Field label={sso.groupValue(i + 1)} {...form.register(`roles.${i}.group` as const)} />
              <div className="ap-field">
                <label htmlFor={`sso-role-${i}`}>{sso.mappedRole(i + 1)}</label>
                <select id={`sso-role-${i}`} className="ap-select" {...form.register(`roles.${i}.role` as const)}>
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {s.roles[r]}
                    </option>
                  ))}
                </select>
              </div>
              <Button variant="ghost" aria-label={sso.removeMapping(i + 1)} onClick={() => roles.remove(i)}>
                <Trash2 aria-hidden size={16} />
              </Button>
            </div>
          ))}
          {errors.roles?.message ? <p className="ap-field__error">{errors.roles.message}</p> : null}
          <div className="ap-actions">
            <Button onClick={() => roles.append({ group: '', role: 'member' })}>
              <Plus aria-hidden size={16} />
              {sso.addMapping}
            </Button>
          </div>
          <div className="ap-field">
            <label htmlFor="sso-default-role">{sso.defaultRole}</label>
            <select id="sso-default-role" className="ap-select" {...form.register('defaultRole')}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {s.roles[r]}
                </option>
              ))}
            </select>
          </div>
          <TextArea label={sso.allowedDomains} hint={sso.allowedDomainsHint} rows={3} error={errors.allowedDomains?.message} {...form.register('allowedDomains')} />
          <label className="ap-teams-check">
            <input type="checkbox" {...form.register('enabled')} />
            <span>{sso.enabled}</span>
          </label>
          <label className="ap-teams-check">
            <input type="checkbox" {...form.register('enforced')} />
            <span>{sso.enforced}</span>
          </label>
        </Section>
      </fieldset>
      {save.error && !named ? <ErrorText error={save.error} /> : null}
      {save.isSuccess && !form.formState.isDirty ? (
        <p className="ap-notice" role="status">
          {sso.saved}
        </p>
      ) : null}
      <div className="ap-actions">
        <Button type="submit" variant="primary" disabled={!manage} busy={save.isPending} aria-describedby={manage ? undefined : 'sso-reason'}>
          {sso.save}
        </Button>
        {config ? (
          <Button variant="danger" disabled={!manage} onClick={() => setRemoving(true)}>
            {sso.remove}
          </Button>
        ) : null}
      </div>
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title={sso.removeTitle}
        description={sso.removeBody}
        confirmLabel={sso.remove}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => setRemoving(false) })}
      />
    </form>
  );
}

/** A team's SSO connection (OIDC or SAML), its role mapping, domains and enforcement, and what to register at the IdP. */
export default function Sso() {
  const { teamId = '' } = useParams();
  const team = useTeam(teamId);
  const manage = team.data ? mayManage(team.data.role) : false;
  const config = useSsoConfig(team.data?.slug, manage);
  let body;
  if (team.isPending || (manage && config.isPending)) body = <Loading />;
  else if (team.isError) body = <ErrorState error={team.error} onRetry={() => void team.refetch()} />;
  else if (config.isError) body = <ErrorState error={config.error} onRetry={() => void config.refetch()} />;
  else
    body = (
      <div className="ap-stack">
        {manage ? null : <Reason id="sso-reason">{s.whyManageTeam(s.roles[team.data.role]!)}</Reason>}
        {config.data ? <Endpoints config={config.data} /> : null}
        <SsoForm slug={team.data.slug} config={config.data ?? null} manage={manage} />
      </div>
    );
  return (
    <>
      <PageHeader
        title={sso.title(team.data?.name ?? '')}
        description={sso.description}
        actions={
          <Link className="ap-button ap-button--secondary" to={`/teams/${teamId}`}>
            {sso.back}
          </Link>
        }
      />
      {body}
    </>
  );
}

import { Crown, LogOut, RotateCw, Trash2, UserMinus, XCircle } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { Field } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { ErrorState, ErrorText, Loading } from '../../components/States';
import { fieldErrors } from '../../lib/errors';
import { formatDate } from '../../lib/format';
import { useSession } from '../../lib/use-session';
import {
  assignableRoles,
  mayManage,
  mayManageMember,
  PROVIDERS,
  useDeleteTeam,
  useDeleteTeamKey,
  useInvitations,
  useInvite,
  useLeave,
  useMembers,
  useRemoveMember,
  useResendInvitation,
  useRevokeInvitation,
  useSaveTeamKey,
  useSetRole,
  useTeam,
  useTeamKeys,
  useTransfer,
  useUpdateTeam,
  type Team as TeamView,
  type TeamInvitation,
  type TeamMember,
  type TeamRole,
  type Provider,
} from './queries';
import { Reason, Section } from './Section';
import { s } from './strings';

function Members({ team, meId }: { team: TeamView; meId?: string }) {
  const members = useMembers(team.id);
  const setRole = useSetRole(team.id);
  const remove = useRemoveMember(team.id);
  const transfer = useTransfer(team.id);
  const [removing, setRemoving] = useState<TeamMember | null>(null);
  const [transferring, setTransferring] = useState<TeamMember | null>(null);
  if (members.isPending) return <Loading />;
  if (members.isError) return <ErrorState error={members.error} onRetry={() => void members.refetch()} />;
  const who = (m: TeamMember) => m.displayName || m.email;
  // What a row's role select and buttons need: whether the viewer may manage this member, and why not.
  const view = (m: TeamMember) => {
    const self = m.userId === meId;
    const manageable = !self && mayManageMember(team.role, m.role);
    const reason = self ? null : m.role === 'owner' ? s.whyOwnerRole : manageable ? null : s.whyManage(s.roles[team.role]!);
    const options = manageable ? Array.from(new Set([m.role, ...assignableRoles(team.role)])) : [m.role];
    return { m, self, manageable, reason, reasonId: `member-reason-${m.userId}`, options };
  };
  return (
    <>
      <ErrorText error={setRole.error} />
      <DataTable
        rows={members.data.map(view)}
        rowKey={({ m }) => m.userId}
        columns={[
          {
            header: s.memberColumns.name,
            rowHeader: true,
            cell: ({ m, self }) => (
              <>
                {who(m)} {self ? <span className="ap-muted">{s.you}</span> : null}
              </>
            ),
          },
          { header: s.memberColumns.email, cell: ({ m }) => m.email },
          {
            header: s.memberColumns.role,
            cell: ({ m, manageable, reason, reasonId, options }) => (
              <>
                <select
                  className="ap-select"
                  aria-label={s.roleOf(who(m))}
                  value={m.role}
                  disabled={!manageable || setRole.isPending}
                  aria-describedby={reason ? reasonId : undefined}
                  onChange={(e) => setRole.mutate({ userId: m.userId, role: e.target.value as TeamRole })}
                >
                  {options.map((r) => (
                    <option key={r} value={r}>
                      {s.roles[r]}
                    </option>
                  ))}
                </select>
                {reason ? <Reason id={reasonId}>{reason}</Reason> : null}
              </>
            ),
          },
          { header: s.memberColumns.joined, cell: ({ m }) => formatDate(m.joinedAt) },
        ]}
        actions={({ m, self, manageable, reason }) =>
          !self && m.role !== 'owner' ? (
            <>
              <Button variant="ghost" aria-label={s.transferLabel(who(m))} title={team.role === 'owner' ? s.transfer : s.whyOwnerOnly} disabled={team.role !== 'owner'} onClick={() => setTransferring(m)}>
                <Crown aria-hidden size={16} />
              </Button>
              <Button variant="ghost" aria-label={s.removeLabel(who(m))} title={manageable ? s.remove : (reason ?? undefined)} disabled={!manageable} onClick={() => setRemoving(m)}>
                <UserMinus aria-hidden size={16} />
              </Button>
            </>
          ) : null
        }
      />
      <ConfirmDialog
        open={!!removing}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={s.removeTitle(removing ? who(removing) : '')}
        description={s.removeBody}
        confirmLabel={s.remove}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => removing && remove.mutate(removing.userId, { onSuccess: () => setRemoving(null) })}
      />
      <ConfirmDialog
        open={!!transferring}
        onOpenChange={(open) => !open && setTransferring(null)}
        title={s.transferTitle(transferring ? who(transferring) : '')}
        description={s.transferBody}
        confirmLabel={s.transfer}
        busy={transfer.isPending}
        error={transfer.error}
        onConfirm={() => transferring && transfer.mutate(transferring.userId, { onSuccess: () => setTransferring(null) })}
      />
    </>
  );
}

type InviteValues = { email: string; role: Exclude<TeamRole, 'owner'> };

function Invitations({ team }: { team: TeamView }) {
  const manage = mayManage(team.role);
  const mayInvite = manage || (team.role === 'member' && !!team.settings.membersMayInvite);
  const invitations = useInvitations(team.id, manage);
  const invite = useInvite(team.id);
  const resend = useResendInvitation(team.id);
  const revoke = useRevokeInvitation(team.id);
  const [revoking, setRevoking] = useState<TeamInvitation | null>(null);
  const [notice, setNotice] = useState('');
  const form = useForm<InviteValues>({ defaultValues: { email: '', role: 'member' } });
  const { errors } = form.formState;
  const submit = form.handleSubmit((v) =>
    invite.mutate(
      { email: v.email.trim(), role: v.role },
      {
        onSuccess: (inv) => {
          setNotice(s.invited(inv.email));
          form.reset({ email: '', role: v.role });
        },
        onError: (error) => {
          const message = fieldErrors(error, ['email', 'role'] as const);
          if (message.email) form.setError('email', { message: message.email });
          if (message.role) form.setError('role', { message: message.role });
        },
      },
    ),
  );
  const named = invite.error ? Object.keys(fieldErrors(invite.error, ['email', 'role'] as const)).length > 0 : false;
  const now = Date.now();
  const status = (i: TeamInvitation) => (i.acceptedAt ? s.accepted : new Date(i.expiresAt).getTime() < now ? s.expired : s.pending);

  let list;
  if (!manage) list = <p className="ap-muted">{s.whyInvitationsList}</p>;
  else if (invitations.isPending) list = <Loading />;
  else if (invitations.isError) list = <ErrorState error={invitations.error} onRetry={() => void invitations.refetch()} />;
  else if (!invitations.data.length) list = <p className="ap-muted">{s.noInvitations}</p>;
  else
    list = (
      <DataTable
        rows={invitations.data}
        rowKey={(i) => i.id}
        columns={[
          { header: s.invitationColumns.email, rowHeader: true, cell: (i) => i.email },
          { header: s.invitationColumns.role, cell: (i) => s.roles[i.role] },
          { header: s.invitationColumns.status, cell: status },
          { header: s.invitationColumns.expires, cell: (i) => formatDate(i.expiresAt) },
        ]}
        actions={(i) =>
          i.acceptedAt ? null : (
            <>
              <Button
                variant="ghost"
                aria-label={s.resendLabel(i.email)}
                busy={resend.isPending && resend.variables?.id === i.id}
                onClick={() => resend.mutate(i, { onSuccess: (inv) => setNotice(s.resent(inv.email)) })}
              >
                <RotateCw aria-hidden size={16} />
              </Button>
              <Button variant="ghost" aria-label={s.revokeLabel(i.email)} onClick={() => setRevoking(i)}>
                <XCircle aria-hidden size={16} />
              </Button>
            </>
          )
        }
      />
    );

  return (
    <Section id="team-invitations" title={s.invitations}>
      <form className="ap-inline-form" noValidate onSubmit={submit} aria-label={s.inviteTitle}>
        <Field label={s.email} type="email" autoComplete="off" disabled={!mayInvite} error={errors.email?.message} {...form.register('email', { required: `${s.email} is required` })} />
        <div className="ap-field">
          <label htmlFor="invite-role">{s.role}</label>
          <select id="invite-role" className="ap-select" disabled={!mayInvite} {...form.register('role')}>
            {assignableRoles(team.role).map((r) => (
              <option key={r} value={r}>
                {s.roles[r]}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="primary" disabled={!mayInvite} busy={invite.isPending} aria-describedby={mayInvite ? undefined : 'invite-reason'}>
          {s.invite}
        </Button>
      </form>
      {mayInvite ? <p className="ap-muted">{s.inviteBody}</p> : <Reason id="invite-reason">{s.whyInvite(s.roles[team.role]!)}</Reason>}
      {invite.error && !named ? <ErrorText error={invite.error} /> : null}
      <ErrorText error={resend.error} />
      {notice ? (
        <p className="ap-notice" role="status">
          {notice}
        </p>
      ) : null}
      {list}
      <ConfirmDialog
        open={!!revoking}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={s.revokeTitle(revoking?.email ?? '')}
        description={s.revokeBody}
        confirmLabel={s.revoke}
        busy={revoke.isPending}
        error={revoke.error}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSuccess: () => setRevoking(null) })}
      />
    </Section>
  );
}

function ProviderKeys({ team }: { team: TeamView }) {
  const manage = mayManage(team.role);
  const keys = useTeamKeys(team.id, manage);
  const save = useSaveTeamKey(team.id);
  const remove = useDeleteTeamKey(team.id);
  const [deleting, setDeleting] = useState<Provider | null>(null);
  const form = useForm<{ provider: Provider; apiKey: string }>({ defaultValues: { provider: PROVIDERS[0], apiKey: '' } });
  const submit = form.handleSubmit((v) =>
    save.mutate(
      { provider: v.provider, apiKey: v.apiKey.trim() },
      {
        onSuccess: () => form.reset({ provider: v.provider, apiKey: '' }),
        onError: (error) => {
          const message = fieldErrors(error, ['apiKey'] as const).apiKey;
          if (message) form.setError('apiKey', { message });
        },
      },
    ),
  );
  let list;
  if (!manage) list = null;
  else if (keys.isPending) list = <Loading />;
  else if (keys.isError) list = <ErrorState error={keys.error} onRetry={() => void keys.refetch()} />;
  else if (!keys.data.length) list = <p className="ap-muted">{s.noKeys}</p>;
  else
    list = (
      <ul className="ap-stack">
        {keys.data.map((k) => (
          <li key={k.provider} className="ap-actions">
            <strong>{s.providers[k.provider] ?? k.provider}</strong>
            <code>{s.keyHint(k.keyHint)}</code>
            <Button variant="ghost" aria-label={s.deleteKeyLabel(s.providers[k.provider] ?? k.provider)} onClick={() => setDeleting(k.provider as Provider)}>
              <Trash2 aria-hidden size={16} />
            </Button>
          </li>
        ))}
      </ul>
    );
  return (
    <Section id="team-keys" title={s.providerKeys}>
      <p className="ap-muted">{s.providerKeysBody}</p>
      {manage ? null : <Reason id="keys-reason">{s.whyManageTeam(s.roles[team.role]!)}</Reason>}
      <form className="ap-inline-form" noValidate onSubmit={submit} aria-label={s.providerKeys}>
        <div className="ap-field">
          <label htmlFor="team-key-provider">{s.provider}</label>
          <select id="team-key-provider" className="ap-select" disabled={!manage} {...form.register('provider')}>
            {PROVIDERS.map((p) => (
              <option key={p} value={p}>
                {s.providers[p]}
              </option>
            ))}
          </select>
        </div>
        <Field label={s.apiKey} type="password" autoComplete="off" disabled={!manage} error={form.formState.errors.apiKey?.message} {...form.register('apiKey', { required: `${s.apiKey} is required` })} />
        <Button type="submit" variant="primary" disabled={!manage} busy={save.isPending} aria-describedby={manage ? undefined : 'keys-reason'}>
          {s.saveKey}
        </Button>
      </form>
      {save.error && !fieldErrors(save.error, ['apiKey'] as const).apiKey ? <ErrorText error={save.error} /> : null}
      {list}
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={s.deleteKeyTitle(deleting ? (s.providers[deleting] ?? deleting) : '')}
        description={s.deleteKeyBody}
        confirmLabel={s.remove}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => deleting && remove.mutate(deleting, { onSuccess: () => setDeleting(null) })}
      />
    </Section>
  );
}

type SettingsValues = { name: string; description: string; defaultProvider: string; sharedProviderKeys: boolean; membersMayInvite: boolean };

function Settings({ team }: { team: TeamView }) {
  const manage = mayManage(team.role);
  const update = useUpdateTeam(team.id);
  const form = useForm<SettingsValues>({
    values: {
      name: team.name,
      description: team.description ?? '',
      defaultProvider: team.settings.defaultProvider ?? '',
      sharedProviderKeys: !!team.settings.sharedProviderKeys,
      membersMayInvite: !!team.settings.membersMayInvite,
    },
  });
  const submit = form.handleSubmit((v) =>
    update.mutate(
      {
        name: v.name.trim(),
        description: v.description.trim(),
        settings: { defaultProvider: (v.defaultProvider || null) as TeamView['settings']['defaultProvider'], sharedProviderKeys: v.sharedProviderKeys, membersMayInvite: v.membersMayInvite },
      },
      {
        onError: (error) => {
          for (const [field, message] of Object.entries(fieldErrors(error, ['name', 'description'] as const))) form.setError(field as 'name', { message: message as string });
        },
      },
    ),
  );
  return (
    <Section id="team-settings" title={s.settings}>
      {manage ? null : <Reason id="settings-reason">{s.whyManageTeam(s.roles[team.role]!)}</Reason>}
      <form className="ap-stack" noValidate onSubmit={submit}>
        <fieldset disabled={!manage} className="ap-stack ap-teams-fieldset">
          <Field label={s.name} error={form.formState.errors.name?.message} {...form.register('name', { required: `${s.name} is required` })} />
          <Field label={s.descriptionField} error={form.formState.errors.description?.message} {...form.register('description')} />
          <div className="ap-field">
            <label htmlFor="team-default-provider">{s.defaultProvider}</label>
            <select id="team-default-provider" className="ap-select" {...form.register('defaultProvider')}>
              <option value="">{s.noDefaultProvider}</option>
              {PROVIDERS.map((p) => (
                <option key={p} value={p}>
                  {s.providers[p]}
                </option>
              ))}
            </select>
          </div>
          <label className="ap-teams-check">
            <input type="checkbox" {...form.register('sharedProviderKeys')} />
            <span>{s.sharedProviderKeys}</span>
          </label>
          <label className="ap-teams-check">
            <input type="checkbox" {...form.register('membersMayInvite')} />
            <span>{s.membersMayInvite}</span>
          </label>
        </fieldset>
        {update.error && !Object.keys(fieldErrors(update.error, ['name', 'description'] as const)).length ? <ErrorText error={update.error} /> : null}
        {update.isSuccess && !form.formState.isDirty ? (
          <p className="ap-notice" role="status">
            {s.saved}
          </p>
        ) : null}
        <div className="ap-actions">
          <Button type="submit" variant="primary" disabled={!manage} busy={update.isPending} aria-describedby={manage ? undefined : 'settings-reason'}>
            {s.saveSettings}
          </Button>
        </div>
      </form>
    </Section>
  );
}

/** One team: members and roles, invitations, provider keys, settings, SSO link, leave and delete. */
export default function Team() {
  const { teamId = '' } = useParams();
  const team = useTeam(teamId);
  const state = useSession();
  const meId = state.status === 'signed-in' ? state.user.id : undefined;
  const navigate = useNavigate();
  const leave = useLeave(teamId);
  const remove = useDeleteTeam(teamId);
  const [leaving, setLeaving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  if (team.isPending) return <Loading />;
  if (team.isError) return <ErrorState error={team.error} onRetry={() => void team.refetch()} />;
  const t = team.data;
  const owner = t.role === 'owner';
  return (
    <>
      <PageHeader
        title={t.name}
        description={`${t.description ? `${t.description} · ` : ''}${s.yourRole}: ${s.roles[t.role]}`}
        actions={
          <>
            <Link className="ap-button ap-button--secondary" to={`/teams/${t.id}/sso`}>
              {s.ssoLink}
            </Link>
            <Button disabled={owner} aria-describedby={owner ? 'leave-reason' : undefined} onClick={() => setLeaving(true)}>
              <LogOut aria-hidden size={16} />
              {s.leave}
            </Button>
            <Button variant="danger" disabled={!owner} aria-describedby={owner ? undefined : 'delete-reason'} onClick={() => setDeleting(true)}>
              <Trash2 aria-hidden size={16} />
              {s.deleteTeam}
            </Button>
          </>
        }
      />
      <div className="ap-stack">
        {owner ? <Reason id="leave-reason">{s.whyOwnerLeave}</Reason> : <Reason id="delete-reason">{`${s.deleteTeam}: ${s.whyOwnerOnly}`}</Reason>}
        <Section id="team-members" title={s.members}>
          <Members team={t} meId={meId} />
        </Section>
        <Invitations team={t} />
        <ProviderKeys team={t} />
        <Settings team={t} />
      </div>
      <ConfirmDialog
        open={leaving}
        onOpenChange={setLeaving}
        title={s.leaveTitle(t.name)}
        description={s.leaveBody}
        confirmLabel={s.leave}
        busy={leave.isPending}
        error={leave.error}
        onConfirm={() => leave.mutate(undefined, { onSuccess: () => navigate('/teams') })}
      />
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={s.deleteTeamTitle(t.name)}
        description={s.deleteTeamBody}
        confirmLabel={s.deleteTeam}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => navigate('/teams') })}
      />
    </>
  );
}



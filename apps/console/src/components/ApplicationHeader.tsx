import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { formatDate } from '../lib/format';
import { t } from '../lib/strings';
import { useApplicationChoices, type ApplicationChoice } from './ApplicationScope';
import { teamsQuery } from '../lib/teams';

/** The first eight characters of an application's id: enough to tell two of the same name apart. */
export const shortId = (id: string) => id.slice(0, 8);

/**
 * The head of every application-level page: the application's name (the page's h1), what tells it from another of
 * the same name (short id, slug, created date, who holds it), and the switcher to another application that keeps
 * the tab (`tab`) open.
 */
export function ApplicationHeader({ application, tab }: { application: ApplicationChoice; tab: string }) {
  const choices = useApplicationChoices();
  const teams = useQuery(teamsQuery);
  const navigate = useNavigate();
  const id = application.id!;
  const team = application.teamId ? teams.data?.find((candidate) => candidate.id === application.teamId) : null;
  const others = choices.data ?? [];
  const options = others.some((a) => a.id === id) ? others : [application, ...others];
  return (
    <header className="ap-app-header">
      <div className="ap-app-header__title">
        <h1>{application.name}</h1>
        <dl className="ap-app-header__facts">
          <div>
            <dt>{t.applicationId}</dt>
            <dd>
              <code title={id}>{shortId(id)}</code>
            </dd>
          </div>
          <div>
            <dt>{t.applicationSlug}</dt>
            <dd>
              <code>{application.slug}</code>
            </dd>
          </div>
          {application.createdAt ? (
            <div>
              <dt>{t.applicationCreated}</dt>
              <dd>{formatDate(application.createdAt)}</dd>
            </div>
          ) : null}
          <div>
            <dt>{t.applicationOwner}</dt>
            <dd>{application.teamId ? t.teamOwner(team?.name ?? shortId(application.teamId)) : t.personal}</dd>
          </div>
        </dl>
      </div>
      <div className="ap-field ap-app-header__switch">
        <label htmlFor="ap-app-switch">{t.switchApplication}</label>
        <select id="ap-app-switch" className="ap-select" value={id} onChange={(e) => void navigate(`/applications/${e.target.value}/${tab}`)}>
          {options.map((a) => (
            <option key={a.id} value={a.id}>
              {t.applicationOption(a.name ?? '', shortId(a.id!))}
            </option>
          ))}
        </select>
      </div>
    </header>
  );
}

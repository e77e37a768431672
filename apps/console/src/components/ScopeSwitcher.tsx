import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { scope, useScope } from '../lib/scope';
import { teamsQuery } from '../lib/teams';
import { t } from '../lib/strings';


/**
 * The personal/team switcher in the shell: every list that takes `?teamId=` follows it (lib/scope.ts).
 * A team you no longer belong to falls back to "all".
 */
export function ScopeSwitcher() {
  const current = useScope();
  const teams = useQuery(teamsQuery);
  useEffect(() => {
    if (teams.data && current !== 'all' && current !== 'personal' && !teams.data.some((team) => team.id === current)) scope.set('all');
  }, [teams.data, current]);
  return (
    <div className="ap-field ap-scope-switcher">
      <label htmlFor="ap-scope">{t.scope}</label>
      <select id="ap-scope" className="ap-select" value={current} onChange={(e) => scope.set(e.target.value)}>
        <option value="all">{t.scopeAll}</option>
        <option value="personal">{t.scopePersonal}</option>
        {teams.data?.map((team) => (
          <option key={team.id} value={team.id}>
            {t.scopeTeam(team.name)}
          </option>
        ))}
      </select>
    </div>
  );
}

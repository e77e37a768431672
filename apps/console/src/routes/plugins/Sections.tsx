import { NavLink, useSearchParams } from 'react-router';
import { s } from './strings';

/** The area's three screens as links (the current one marked for assistive technology); the chosen application goes along. */
export function Sections() {
  const [params] = useSearchParams();
  const app = params.get('app');
  const query = app ? `?${new URLSearchParams({ app })}` : '';
  const link = (to: string, label: string, end = false) => (
    <NavLink to={`${to}${to === '/plugins' ? '' : query}`} end={end} className={({ isActive }) => `ap-tabs__trigger${isActive ? ' ap-pl-current' : ''}`}>
      {label}
    </NavLink>
  );
  return (
    <nav className="ap-tabs__list" aria-label={s.sections}>
      {link('/plugins', s.mine, true)}
      {link('/plugins/installed', s.installed)}
      {link('/plugins/pages', s.pages)}
    </nav>
  );
}

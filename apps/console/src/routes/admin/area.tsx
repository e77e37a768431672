import { NavLink, Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import { PageHeader } from '../../components/PageHeader';
import Health from './Health';
import Users from './Users';
import { s } from './strings';
import './admin.css';

/** Admin (`/admin` users, `/admin/health`): in the navigation for admins only; the API answers 403 to others. */
export default function AdminArea() {
  return (
    <>
      <PageHeader title={s.title} />
      <nav aria-label={s.tabs} className="adm-tabs">
        <NavLink end to="/admin" className="adm-tab">
          {s.users}
        </NavLink>
        <NavLink to="/admin/health" className="adm-tab">
          {s.health}
        </NavLink>
      </nav>
      <Routes>
        <Route index element={<Users />} />
        <Route path="health" element={<Health />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </>
  );
}

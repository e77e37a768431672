import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import DomainDetail from './DomainDetail';
import Domains from './Domains';
import './domains.css';

/** Custom domains (`/domains`, `/domains/:id`). */
export default function DomainsArea() {
  return (
    <Routes>
      <Route index element={<Domains />} />
      <Route path=":id" element={<DomainDetail />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import Audit from './Audit';
import './audit.css';

/** The audit log (`/audit`, filters kept in the address). */
export default function AuditArea() {
  return (
    <Routes>
      <Route index element={<Audit />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

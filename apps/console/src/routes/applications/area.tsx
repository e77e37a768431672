import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import ApplicationsList from './ApplicationsList';

/** The Applications area (`/applications/*`). */
export default function ApplicationsArea() {
  return (
    <Routes>
      <Route index element={<ApplicationsList />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

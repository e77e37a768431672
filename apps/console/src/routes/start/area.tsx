import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import FirstRun from './FirstRun';

/** The first-run guide (`/start`). */
export default function StartArea() {
  return (
    <Routes>
      <Route index element={<FirstRun />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import Analytics from './Analytics';

/** Analytics (`/analytics`): overview, usage by day, provider and source, costs with own keys apart. */
export default function AnalyticsArea() {
  return (
    <Routes>
      <Route index element={<Analytics />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import NotificationsList from './NotificationsList';

/** Notifications (`/notifications`). */
export default function NotificationsArea() {
  return (
    <Routes>
      <Route index element={<NotificationsList />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

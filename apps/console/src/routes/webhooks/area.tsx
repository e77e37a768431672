import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import Webhook from './Webhook';
import Webhooks from './Webhooks';
import './webhooks.css';

/** Webhooks (`/webhooks`, `/webhooks/:webhookId`). */
export default function WebhooksArea() {
  return (
    <Routes>
      <Route index element={<Webhooks />} />
      <Route path=":webhookId" element={<Webhook />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

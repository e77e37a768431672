import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import Billing from './Billing';
import './billing.css';

/** Billing (`/billing`; Stripe returns here with `?checkout=success|canceled`). */
export default function BillingArea() {
  return (
    <Routes>
      <Route index element={<Billing />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import ReviewQueue from './ReviewQueue';
import './marketplace-admin.css';

/** Marketplace administration (administrators only; hidden from the others' navigation): the review queue and featuring. */
export default function MarketplaceAdminArea() {
  return (
    <Routes>
      <Route index element={<ReviewQueue />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

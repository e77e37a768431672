import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import Browse from './Browse';
import ItemDetail from './ItemDetail';
import Licenses from './Licenses';
import Submissions from './Submissions';
import Submit from './Submit';
import Updates from './Updates';
import './market.css';

/** The Marketplace area: browse and search, an item's page, submit, my submissions, updates, your licenses. */
export default function MarketplaceArea() {
  return (
    <Routes>
      <Route index element={<Browse />} />
      <Route path="plugins/:id" element={<ItemDetail kind="plugins" />} />
      <Route path="themes/:id" element={<ItemDetail kind="themes" />} />
      <Route path="submit" element={<Submit />} />
      <Route path="submissions" element={<Submissions />} />
      <Route path="updates" element={<Updates />} />
      <Route path="licenses" element={<Licenses />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

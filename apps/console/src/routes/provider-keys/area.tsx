import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import ProviderKeys from './ProviderKeys';

/** Provider keys (`/provider-keys`). */
export default function ProviderKeysArea() {
  return (
    <Routes>
      <Route index element={<ProviderKeys />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

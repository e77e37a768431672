import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import ApiKeys from './ApiKeys';

/** API keys and embedding (`/api-keys`). */
export default function ApiKeysArea() {
  return (
    <Routes>
      <Route index element={<ApiKeys />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import Account from './Account';

/** The account (`/account`): profile, password, sign-in identities, plan and usage, deletion. */
export default function AccountArea() {
  return (
    <Routes>
      <Route index element={<Account />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

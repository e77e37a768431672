import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import Accept from './Accept';
import Sso from './Sso';
import Team from './Team';
import Teams from './Teams';
import './teams.css';

/** Teams (`/teams`, `/teams/:teamId`, `/teams/:teamId/sso`) and the invitation link's page (`/teams/accept`). */
export default function TeamsArea() {
  return (
    <Routes>
      <Route index element={<Teams />} />
      <Route path="accept" element={<Accept />} />
      <Route path=":teamId" element={<Team />} />
      <Route path=":teamId/sso" element={<Sso />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import Branding from './Branding';
import ThemeEditor from './ThemeEditor';
import './branding.css';

/** Themes & branding (`/branding`, `/branding/themes/new`). */
export default function BrandingArea() {
  return (
    <Routes>
      <Route index element={<Branding />} />
      <Route path="themes/new" element={<ThemeEditor />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

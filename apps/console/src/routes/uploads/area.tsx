import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import Uploads from './Uploads';

/** Your uploaded files (`/uploads`). */
export default function UploadsArea() {
  return (
    <Routes>
      <Route index element={<Uploads />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

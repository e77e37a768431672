import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import Data from './Data';
import './data.css';

/** Data export and import (`/data`). */
export default function DataArea() {
  return (
    <Routes>
      <Route index element={<Data />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

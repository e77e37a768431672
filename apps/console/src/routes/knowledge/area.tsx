import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import Knowledge from './Knowledge';
import '../../components/knowledge/knowledge.css';

/** The Knowledge area (`/knowledge`, the application chosen with `?app=`). */
export default function KnowledgeArea() {
  return (
    <Routes>
      <Route index element={<Knowledge />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import '../../components/knowledge/knowledge.css';
import Bases from './Bases';
import Base from './Base';

/** The workspace's knowledge bases (`/knowledge-bases`) and one base (`/knowledge-bases/:baseId`). */
export default function KnowledgeBasesArea() {
  return (
    <Routes>
      <Route index element={<Bases />} />
      <Route path=":baseId" element={<Base />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

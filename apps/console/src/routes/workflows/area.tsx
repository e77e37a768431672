import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import Detail, { NewWorkflow } from './Detail';
import Templates from './Templates';
import Workflows from './Workflows';
import './workflows.css';

/** Workflows (`/workflows?app=`, `/workflows/new`, `/workflows/:id?run=`) and the templates gallery (`/workflows/templates`). */
export default function WorkflowsArea() {
  return (
    <Routes>
      <Route index element={<Workflows />} />
      <Route path="new" element={<NewWorkflow />} />
      <Route path="templates" element={<Templates />} />
      <Route path=":id" element={<Detail />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

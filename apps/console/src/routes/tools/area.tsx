import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import Tools from './Tools';

/** An application's tools, its agent settings and how to reach it as an MCP server (`/tools`). */
export default function ToolsArea() {
  return (
    <Routes>
      <Route index element={<Tools />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

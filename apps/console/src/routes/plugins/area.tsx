import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import { AdminPages } from './AdminPages';
import { CreatePlugin } from './CreatePlugin';
import { Installations } from './Installations';
import { MyPlugins } from './MyPlugins';
import { PluginDetail } from './PluginDetail';
import './plugins.css';

/** Plugins (`/plugins`): my plugins, a new one, one plugin, installations per application, admin pages. */
export default function PluginsArea() {
  return (
    <Routes>
      <Route index element={<MyPlugins />} />
      <Route path="new" element={<CreatePlugin />} />
      <Route path="installed" element={<Installations />} />
      <Route path="pages" element={<AdminPages />} />
      <Route path=":id" element={<PluginDetail />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

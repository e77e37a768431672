import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import ModelConfigs from './ModelConfigs';
import Versions from './Versions';
import './model-configs.css';

/** Model configs (`/model-configs?app=`) and a config's A/B versions (`/model-configs/:configId`). */
export default function ModelConfigsArea() {
  return (
    <Routes>
      <Route index element={<ModelConfigs />} />
      <Route path=":configId" element={<Versions />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

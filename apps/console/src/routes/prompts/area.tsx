import { Route, Routes } from 'react-router';
import { NotFound } from '../../app/NotFound';
import Prompts from './Prompts';
import './prompts.css';

/** Prompt templates (`/prompts?app=`). */
export default function PromptsArea() {
  return (
    <Routes>
      <Route index element={<Prompts />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

import { Route, Routes } from 'react-router';
import Playground from './Playground';

/** The Playground (`/playground/:appId?/:conversationId?`); one route, so a new conversation keeps the screen's state. */
export default function PlaygroundArea() {
  return (
    <Routes>
      <Route path=":appId?/:conversationId?" element={<Playground />} />
    </Routes>
  );
}

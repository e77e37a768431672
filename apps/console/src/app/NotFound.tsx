import { Link } from 'react-router';
import { t } from '../lib/strings';

export function NotFound() {
  return (
    <div className="ap-state">
      <h1>{t.notFound}</h1>
      <p className="ap-muted">{t.notFoundBody}</p>
      <Link to="/">{t.console}</Link>
    </div>
  );
}

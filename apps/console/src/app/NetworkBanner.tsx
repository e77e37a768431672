import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button } from '../components/Button';
import { NetworkError } from '../lib/errors';
import { t } from '../lib/strings';

/** Shown while the platform cannot be reached; retrying refetches what failed (forms keep what was typed). */
export function NetworkBanner() {
  const client = useQueryClient();
  const [offline, setOffline] = useState(false);
  useEffect(() => {
    const check = () => setOffline(client.getQueryCache().getAll().some((q) => q.state.error instanceof NetworkError));
    const unsubscribe = client.getQueryCache().subscribe(check);
    return unsubscribe;
  }, [client]);
  if (!offline) return null;
  return (
    <div className="ap-banner" role="alert">
      <span>{t.offline}</span>
      <Button onClick={() => void client.refetchQueries({ predicate: (q) => q.state.error instanceof NetworkError })}>{t.retry}</Button>
    </div>
  );
}

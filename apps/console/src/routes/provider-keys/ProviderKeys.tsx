import { PageHeader } from '../../components/PageHeader';
import { ErrorState, Loading } from '../../components/States';
import { Connections } from './Connections';
import { ProviderKeyCard } from './ProviderKeyCard';
import { PROVIDERS, useProviderCatalogue, useProviderKeys } from './queries';
import { s } from './strings';

export default function ProviderKeys() {
  const keys = useProviderKeys();
  const catalogue = useProviderCatalogue();
  return (
    <>
      <PageHeader title={s.title} description={s.description} />
      {keys.isPending ? (
        <Loading />
      ) : keys.isError ? (
        <ErrorState error={keys.error} onRetry={() => void keys.refetch()} />
      ) : (
        <div className="ap-stack">
          {PROVIDERS.map((provider) => (
            <ProviderKeyCard
              key={provider}
              provider={provider}
              saved={keys.data.find((k) => k.provider === provider)}
              platformKey={catalogue.data?.find((p) => p.id === provider)?.platformKeyConfigured}
            />
          ))}
          <Connections />
        </div>
      )}
    </>
  );
}

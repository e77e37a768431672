import { Download, Star } from 'lucide-react';
import { Link } from 'react-router';
import type { Item, Kind } from './queries';
import { categoryName, s } from './strings';

export const priceOf = (item: Pick<Item, 'isPaid' | 'price'>) => (item.isPaid && item.price ? s.price(item.price) : s.free);

/** One item in a list: its name (the link to its page), author, description as text, rating, installs and price. */
export function ItemCard({ item, kind }: { item: Item; kind: Kind }) {
  return (
    <li className="ap-card ap-mk-card">
      <article aria-labelledby={`mk-${item.id}`}>
        <h3 id={`mk-${item.id}`} className="ap-mk-card__title">
          <Link to={`/market/${kind}/${item.id}`}>{item.displayName || item.name}</Link>
        </h3>
        <p className="ap-muted ap-mk-card__by">
          {s.by(item.author)} · {categoryName(item.category)}
          {item.featured ? <span className="ap-mk-badge">{s.featuredBadge}</span> : null}
        </p>
        <p className="ap-mk-card__description">{item.description}</p>
        <p className="ap-mk-card__meta">
          <span>
            <Star aria-hidden size={14} /> {s.rating(item.averageRating, item.ratingCount)}
          </span>
          <span>
            <Download aria-hidden size={14} /> {s.downloads(item.downloadCount)}
          </span>
          <span className="ap-strong">{priceOf(item)}</span>
        </p>
      </article>
    </li>
  );
}

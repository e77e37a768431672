import { Star } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { TextArea } from '../../components/Field';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { fieldErrors } from '../../lib/errors';
import { formatDate } from '../../lib/format';
import { useSession } from '../../lib/use-session';
import { useReviewMutations, useReviews, type ItemDetail, type Kind, type Review } from './queries';
import { s } from './strings';

/** Reviews of an item (text only) and the caller's own: write, edit, delete. */
export function Reviews({ kind, item }: { kind: Kind; item: ItemDetail }) {
  const session = useSession();
  const me = session.status === 'signed-in' ? session.user.id : undefined;
  const reviews = useReviews(kind, item.id);
  const mine = reviews.data?.find((r) => r.userId === me);

  let list;
  if (reviews.isPending) list = <Loading />;
  else if (reviews.isError) list = <ErrorState error={reviews.error} onRetry={() => void reviews.refetch()} />;
  else if (!reviews.data.length) list = <EmptyState title={s.noReviews}>{s.noReviewsBody}</EmptyState>;
  else
    list = (
      <ul className="ap-mk-reviews" aria-label={s.reviews}>
        {reviews.data.map((r) => (
          <ReviewItem key={r.id ?? r.userId} review={r} mine={r.userId === me} />
        ))}
      </ul>
    );

  return (
    <section className="ap-card ap-stack" aria-labelledby="mk-reviews">
      <h2 id="mk-reviews">{s.reviews}</h2>
      {reviews.isSuccess ? <ReviewForm kind={kind} item={item} mine={mine} ownItem={!!me && item.authorId === me} /> : null}
      {list}
    </section>
  );
}

function ReviewItem({ review, mine }: { review: Review; mine: boolean }) {
  return (
    <li className="ap-mk-review">
      <p className="ap-mk-review__head">
        <span className="ap-mk-stars" aria-label={s.stars(review.rating)} role="img">
          {[1, 2, 3, 4, 5].map((n) => (
            <Star key={n} aria-hidden size={14} className={n <= review.rating ? 'ap-mk-star--on' : 'ap-mk-star--off'} />
          ))}
        </span>
        <span className="ap-strong">{mine ? s.you : s.aUser}</span>
        <span className="ap-muted">{formatDate(review.updatedAt ?? review.createdAt)}</span>
      </p>
      {review.title ? <p className="ap-strong ap-mk-text">{review.title}</p> : null}
      <p className="ap-mk-text">{review.comment ?? review.review}</p>
    </li>
  );
}

function ReviewForm({ kind, item, mine, ownItem }: { kind: Kind; item: ItemDetail; mine?: Review; ownItem: boolean }) {
  const { save, remove } = useReviewMutations(kind, item.id);
  const [rating, setRating] = useState(mine?.rating ?? 5);
  const [text, setText] = useState(mine?.comment ?? '');
  const [confirming, setConfirming] = useState(false);
  const [announce, setAnnounce] = useState('');
  useEffect(() => {
    setRating(mine?.rating ?? 5);
    setText(mine?.comment ?? '');
  }, [mine?.rating, mine?.comment]);
  const errors = fieldErrors(save.error, ['rating', 'review'] as const);
  const general = save.error && !errors.rating && !errors.review ? save.error : null;

  return (
    <form
      className="ap-stack ap-mk-review-form"
      aria-label={mine ? s.editReview : s.writeReview}
      onSubmit={(e) => {
        e.preventDefault();
        setAnnounce('');
        save.mutate({ rating, review: text }, { onSuccess: () => setAnnounce(s.reviewSaved) });
      }}
    >
      <h3>{mine ? s.editReview : s.writeReview}</h3>
      {ownItem ? <p className="ap-muted" id="mk-own-item">{s.ownItem}</p> : null}
      <fieldset disabled={ownItem} aria-describedby={ownItem ? 'mk-own-item' : undefined} className="ap-stack ap-mk-fieldset">
        <div className="ap-field">
          <label htmlFor="mk-rating">{s.ratingField}</label>
          <select id="mk-rating" className="ap-select" value={rating} onChange={(e) => setRating(Number(e.target.value))} aria-invalid={errors.rating ? true : undefined}>
            {[5, 4, 3, 2, 1].map((n) => (
              <option key={n} value={n}>
                {s.stars(n)}
              </option>
            ))}
          </select>
          {errors.rating ? <p className="ap-field__error" role="alert">{errors.rating}</p> : null}
        </div>
        <TextArea label={s.reviewField} hint={s.reviewHint} rows={4} maxLength={5000} value={text} error={errors.review} onChange={(e) => setText(e.target.value)} />
        <ErrorText error={general} />
        <div className="ap-actions">
          <Button type="submit" variant="primary" busy={save.isPending}>
            {mine ? s.updateReview : s.saveReview}
          </Button>
          {mine ? (
            <Button variant="danger" onClick={() => setConfirming(true)}>
              {s.deleteReview}
            </Button>
          ) : null}
        </div>
      </fieldset>
      <p role="status" className="ap-visually-hidden">
        {announce}
      </p>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          setConfirming(open);
          if (!open) remove.reset();
        }}
        title={s.deleteReviewTitle}
        description={s.deleteReviewBody}
        confirmLabel={s.deleteReview}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              setAnnounce(s.reviewDeleted);
            },
          })
        }
      />
    </form>
  );
}

import { Button } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

export interface InfiniteMoreProps {
  hasMore: boolean;
  loading: boolean;
  onMore: () => void;
}

/**
 * The end of an infinite list: loads the next page when it scrolls into view, and offers a
 * button for browsers without IntersectionObserver or when the list does not fill the view.
 */
export function InfiniteMore({ hasMore, loading, onMore }: InfiniteMoreProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  // The latest callback, so a new closure each render does not re-subscribe the observer.
  const more = useRef(onMore);
  more.current = onMore;
  useEffect(() => {
    const node = ref.current;
    if (!node || !hasMore || loading || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) more.current();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasMore, loading]);
  if (!hasMore) return null;
  return (
    <div ref={ref} style={{ textAlign: 'center', padding: 12 }}>
      <Button onClick={onMore} loading={loading} data-testid="load-more">
        {t('material.loadMore')}
      </Button>
    </div>
  );
}

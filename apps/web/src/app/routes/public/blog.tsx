import { Newspaper } from 'lucide-react';
import { Link } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';

import { articles } from './articles';

/** The blog: a coming-soon page (spec section 2) with the guides already written. */
export function BlogRoute() {
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-12 sm:px-6 lg:px-8">
      <title>Blog · CourseLens</title>
      <div className="flex flex-col items-center text-center">
        <div className="flex size-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-600 dark:bg-brand-400/10 dark:text-brand-300">
          <Newspaper aria-hidden="true" className="size-6" />
        </div>
        <Badge variant="brand" className="mt-5">
          Coming soon
        </Badge>
        <h1 className="mt-3 text-3xl font-bold tracking-tight text-fg sm:text-4xl">The CourseLens blog</h1>
        <p className="mt-3 max-w-xl text-fg-muted">
          Stories from learning teams, product news and analytics ideas are on their way. Meanwhile, here are
          our first guides.
        </p>
      </div>
      <ul className="mt-10 flex flex-col gap-4">
        {articles.map((article) => (
          <li key={article.id}>
            <Card className="p-6 transition-colors hover:border-brand-300 dark:hover:border-brand-400/50">
              <p className="text-xs text-fg-subtle">
                <time dateTime={article.date}>{article.date}</time> · {article.readingMinutes} min read
              </p>
              <h2 className="mt-1 text-lg font-semibold text-fg">
                <Link to={paths.blog.article.href(article.id)} className="rounded hover:text-accent">
                  {article.title}
                </Link>
              </h2>
              <p className="mt-2 text-sm text-fg-muted">{article.summary}</p>
            </Card>
          </li>
        ))}
      </ul>
    </div>
  );
}

import { ArrowLeft, ArrowRight } from 'lucide-react';
import { Link, useParams } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { paths } from '@/config/paths';

import { NotFoundRoute } from '../not-found';
import { findArticle, type ArticleBlock } from './articles';

function Block({ block }: { block: ArticleBlock }) {
  switch (block.type) {
    case 'h2':
      return <h2 className="mt-10 text-xl font-semibold text-fg">{block.text}</h2>;
    case 'code':
      return (
        // Focusable and labelled, so a keyboard user can scroll a long line
        // (axe: scrollable-region-focusable).
        <pre
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must take focus
          tabIndex={0}
          role="region"
          aria-label="Code example"
          className="mt-4 overflow-x-auto rounded-xl bg-slate-900 p-4 text-sm text-slate-100 dark:bg-black/40"
        >
          <code>{block.text}</code>
        </pre>
      );
    case 'list':
      return (
        <ul className="mt-4 list-disc space-y-2 pl-6 text-fg-muted">
          {block.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      );
    default:
      return <p className="mt-4 leading-7 text-fg-muted">{block.text}</p>;
  }
}

export function BlogArticleRoute() {
  const { id } = useParams();
  const article = findArticle(id);
  if (!article) return <NotFoundRoute />;
  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6 lg:px-8">
      <title>{`${article.title} · CourseLens`}</title>
      <Link
        to={paths.blog.list.href()}
        className="inline-flex items-center gap-1 rounded text-sm text-fg-muted hover:text-fg"
      >
        <ArrowLeft aria-hidden="true" className="size-4" /> All articles
      </Link>
      <p className="mt-6 text-sm text-fg-subtle">
        <time dateTime={article.date}>{article.date}</time> · {article.readingMinutes} min read
      </p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-balance text-fg sm:text-4xl">
        {article.title}
      </h1>
      <p className="mt-4 text-lg text-fg-muted">{article.summary}</p>
      {article.blocks.map((block, index) => (
        <Block key={index} block={block} />
      ))}
      <aside aria-label="Try CourseLens" className="mt-12 rounded-2xl border border-line bg-surface p-6">
        <p className="font-semibold text-fg">See your own course data in CourseLens</p>
        <p className="mt-1 text-sm text-fg-muted">Free for your first course and 100 learners.</p>
        <Link to={paths.auth.signup.href()} className={buttonClassName({ className: 'mt-4' })}>
          Start free <ArrowRight aria-hidden="true" />
        </Link>
      </aside>
    </article>
  );
}

-- What writing slide views costs with the log's indexes as migrated, beside
-- the layout before migration 0026 (slide views in the course index, no
-- slide number index). On a seeded bench database only: each variant runs in
-- a transaction that is rolled back, and the old layout's variant drops and
-- builds indexes inside it (an exclusive lock on the log for a minute).
--
--   psql "$BENCH_DATABASE_URL" -At -f bench/slide-view-writes.sql
--
-- Each variant inserts 300 batches of 100 slide views (30 000 rows, copied
-- from the newest month's views with new ids and times in the last hour), as
-- ingestion writes them: one statement per batch, with the log's triggers,
-- and prints the milliseconds the 300 statements took. Three rounds,
-- alternating; the first round warms the caches.
\set QUIET on
create temp table slide_view_sources as
  select organization_id, course_id, learner_id, run_id, slide_number
  from learning_events
  where type = 'slide.viewed'
    and occurred_at >= (select date_trunc('month', max(occurred_at)) from learning_events)
  limit 30000;
create or replace function pg_temp.write_slide_views() returns double precision
language plpgsql as $$
declare
  began timestamptz := clock_timestamp();
  batch int;
begin
  for batch in 0..299 loop
    insert into learning_events (organization_id, occurred_at, event_id, type, source, course_id,
      learner_id, run_id, slide_number, seconds)
    select s.organization_id, now() - random() * interval '1 hour', 'bench-' || gen_random_uuid(),
      'slide.viewed', 'api', s.course_id, s.learner_id, s.run_id, s.slide_number, 12
    from (select * from slide_view_sources offset batch * 100 limit 100) s;
  end loop;
  return extract(epoch from clock_timestamp() - began) * 1000;
end $$;
-- The log's indexes as before migration 0026, inside the caller's transaction.
create or replace function pg_temp.use_layout_before_0026() returns void
language plpgsql as $$
begin
  drop index learning_events_slide_number_idx;
  drop index learning_events_course_idx;
  create index learning_events_course_idx on learning_events
    (organization_id, course_id, type, occurred_at, learner_id, slide_number, question_id);
end $$;
\unset QUIET
-- One round: each layout in a transaction of its own, rolled back.
\set round 'begin; select ''as migrated'', round(pg_temp.write_slide_views()::numeric); rollback; begin; select pg_temp.use_layout_before_0026(); select ''before 0026'', round(pg_temp.write_slide_views()::numeric); rollback;'
\echo 'layout|ms for 30 000 slide views'
:round
:round
:round

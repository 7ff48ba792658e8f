-- Statements that group per learner can run in shares of the learners, one
-- range of a hash of the learner's id each (db/learner-parts.ts). Without
-- statistics on that hash PostgreSQL guesses that a share holds a sliver of
-- the rows (a range on an unknown expression), and plans a share's hundred
-- thousand rows as if they were a few hundred: sorts where a hash is cheaper,
-- and no estimate of the groups it makes. These statistics give the hash's
-- real spread on the tables the shares read; ANALYZE fills them now, the
-- autovacuum keeps them.
CREATE STATISTICS IF NOT EXISTS "course_runs_learner_share_stats" ON ((uuid_hash("learner_id") & 2147483647)) FROM "course_runs";--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "course_learners_learner_share_stats" ON ((uuid_hash("learner_id") & 2147483647)) FROM "course_learners";--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "learner_answer_hours_learner_share_stats" ON ((uuid_hash("learner_id") & 2147483647)) FROM "learner_answer_hours";--> statement-breakpoint
ANALYZE "course_runs", "course_learners", "learner_answer_hours";

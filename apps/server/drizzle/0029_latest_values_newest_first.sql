-- A variable's report lists its latest values newest first by default. With
-- this index a page is the index's first entries for the variable; without
-- it every learner's value was read and sorted (about 40 ms of a report at
-- 100 000 learners). Nulls first, as `desc` orders them, so the oldest-first
-- order reads it backwards.
CREATE INDEX "learner_variable_latest_recent_idx" ON "learner_variable_latest" USING btree ("organization_id","variable_id","recorded_at" DESC NULLS FIRST,"learner_id","course_id");
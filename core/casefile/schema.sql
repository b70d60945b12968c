-- SPDX-License-Identifier: Apache-2.0
-- The Faultline case file (*.faultline): one SQLite database per incident. This file is the schema's
-- documentation and its source: the build embeds it, and a new case is created by running it.
--
-- Identification: PRAGMA application_id = 1179407427 (0x464C5443, "FLTC"); PRAGMA user_version = the schema
-- version (this file: 4). The file is cut into sections, one per version: a new case runs them all; an older case
-- is migrated forward by running the sections after its version, in one transaction, after a backup copy of the
-- file is written next to it. A section may only add to what came before (or alter it with SQL of its own). A case
-- from a newer schema is refused, or opened read-only when its meta.read_compat_version says this build can read it.
--
-- Conventions: times are int64 nanoseconds since the Unix epoch, UTC (NULL when unknown); wall-clock stamps of
-- actions (created_at) are RFC 3339 UTC text. Lines are 1-based, byte offsets 0-based. Node names are the
-- normalised short host names the engine uses. A new case is written into a private temporary file beside its
-- target (no journal), flushed and renamed into place; every later write is one transaction in WAL mode. A closed
-- case is checkpointed into a single self-contained file.

-- == version 1 ==

-- Key/value facts about the case: format, created_at, created_by (application and version), bundle_root,
-- read_compat_version (the oldest schema version that can still read this file), chunk_target (bytes per chunk),
-- chunk_hash ('stored': chunks.sha256 covers the stored, compressed bytes, as every case written with schema 2
-- does; absent, as in cases written with schema 1: it covers the uncompressed bytes), redaction (only in a redacted
-- copy, as faultline-cli redact writes it: a JSON record, schema faultline.redaction/1, of the profile used and the
-- original's evidence hashes, sizes, line counts, import fingerprints and rule catalog hashes; the copy's own hashes
-- and byte offsets are those of its redacted bytes, its line numbers the original's).
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- The evidence, byte for byte: every file of the imported bundle. A case re-imports from these bytes, so it opens
-- and re-runs without the original bundle.
CREATE TABLE files (
    id          INTEGER PRIMARY KEY,      -- position in the import's input (0-based)
    path        TEXT NOT NULL,            -- display path, relative to the bundle root
    origin      TEXT NOT NULL,            -- where it was read at import (absolute path or archive!/member)
    size        INTEGER NOT NULL,         -- bytes
    sha256      TEXT,                     -- hex SHA-256 of the whole content; NULL when the file was unreadable
    mtime_ns    INTEGER,                  -- last write time at import (archive members: the archive's)
    readable    INTEGER NOT NULL,         -- 0: the file could not be read; read_error says why
    read_error  TEXT NOT NULL DEFAULT '',
    cut         INTEGER NOT NULL DEFAULT 0, -- 1: the archive read stopped inside this member
    line_count  INTEGER NOT NULL,         -- lines (a last line without a newline counts)
    chunk_count INTEGER NOT NULL          -- rows in chunks for this file
);

-- A file's bytes in order, cut after a newline near chunk_target bytes (a longer line is cut inside). Each chunk
-- carries a SHA-256 (of its stored bytes, or of its uncompressed bytes: see meta.chunk_hash), checked on every read;
-- files.sha256 is checked whenever a whole file is read back. Together with first_line this is the line
-- index: line N starts in the last chunk whose first_line < N, or in the chunk with first_line = N that starts a
-- line.
CREATE TABLE chunks (
    file_id     INTEGER NOT NULL REFERENCES files(id),
    seq         INTEGER NOT NULL,         -- 0-based order within the file
    first_byte  INTEGER NOT NULL,         -- offset of the chunk's first byte in the file
    first_line  INTEGER NOT NULL,         -- line of the chunk's first byte
    starts_line INTEGER NOT NULL,         -- 1 when the first byte begins a line
    newlines    INTEGER NOT NULL,         -- '\n' bytes in the chunk
    raw_size    INTEGER NOT NULL,         -- uncompressed bytes
    sha256      TEXT NOT NULL,            -- hex SHA-256 (see meta.chunk_hash)
    codec       TEXT NOT NULL,            -- 'zstd' or 'none'
    data        BLOB NOT NULL,
    PRIMARY KEY (file_id, seq)
);
CREATE INDEX chunks_by_line ON chunks(file_id, first_line);

-- The import that built the evidence: importer and version, time, manifest, scope and reports.
CREATE TABLE imports (
    id                INTEGER PRIMARY KEY,
    created_at        TEXT NOT NULL,
    importer          TEXT NOT NULL,
    importer_version  TEXT NOT NULL,
    bundle_root       TEXT NOT NULL,
    has_manifest      INTEGER NOT NULL,
    manifest_readable INTEGER NOT NULL,
    manifest_path     TEXT NOT NULL,
    manifest          BLOB,               -- the manifest's bytes (faultline.yaml), NULL when none
    job_option        TEXT NOT NULL,      -- the job id asked for at import (--job), '' when none; re-imports use it
    scope_json        TEXT NOT NULL,      -- the workload scope the importer found
    observations      INTEGER NOT NULL,
    metric_series     INTEGER NOT NULL,
    fingerprint       TEXT NOT NULL,      -- SHA-256 over every observation's provenance, time, node and kind
    report_text       TEXT NOT NULL,      -- the import report (faultline-cli import-report)
    report_json       TEXT NOT NULL,
    duration_ms       INTEGER NOT NULL
);

-- Problems found while listing the bundle (phase 'input', re-applied on re-import) and bundle-level problems of
-- the import (phase 'evidence'); per-file warnings are in the import report.
CREATE TABLE import_diagnostics (
    import_id INTEGER NOT NULL REFERENCES imports(id),
    phase     TEXT NOT NULL,              -- 'input' | 'evidence'
    severity  TEXT NOT NULL,              -- 'info' | 'warning' | 'error'
    code      TEXT NOT NULL,
    message   TEXT NOT NULL,
    file      TEXT NOT NULL,
    line      INTEGER NOT NULL
);

-- Archives whose read stopped early (a truncated or bomb-limited archive): kept so coverage shows the gap.
CREATE TABLE import_archives (
    import_id INTEGER NOT NULL REFERENCES imports(id),
    path      TEXT NOT NULL,
    status    TEXT NOT NULL,              -- 'error' | 'truncated'
    bytes     INTEGER NOT NULL,
    code      TEXT NOT NULL,
    message   TEXT NOT NULL
);

-- The evidence sources as imported (one per file, plus incomplete archives): format and why, host, zone, counts.
-- An observation's or event's source_idx points here.
CREATE TABLE sources (
    idx           INTEGER PRIMARY KEY,    -- index in the evidence set (0-based)
    file_id       INTEGER REFERENCES files(id),
    path          TEXT NOT NULL,
    format        TEXT NOT NULL,
    format_reason TEXT NOT NULL,
    kind          TEXT NOT NULL,          -- scheduler | applog | kernel | metrics | fabric-manager | kubernetes | other
    host          TEXT,
    zone          TEXT NOT NULL,
    zone_assumed  INTEGER NOT NULL,
    status        TEXT NOT NULL,          -- ok | empty | error | truncated | missing
    bytes         INTEGER NOT NULL,
    lines         INTEGER NOT NULL,
    records       INTEGER NOT NULL,
    skipped       INTEGER NOT NULL,
    out_of_scope  INTEGER NOT NULL,
    first_ns      INTEGER,
    last_ns       INTEGER,
    warnings      INTEGER NOT NULL
);

-- Observations (one per log record), in blocks of up to 4096 records of one source, node and kind, in file
-- order. `data` is zstd-compressed columns of varints (see encodeObservationBlock in case_encoding.cpp): index in the
-- evidence set, line, byte offset, length, time, time precision, rank, GPU, time quality, out-of-scope flag. A
-- record's text is its bytes in `chunks` (line and byte offset). Indexed by time, node and kind.
CREATE TABLE observation_blocks (
    id          INTEGER PRIMARY KEY,
    source_idx  INTEGER NOT NULL REFERENCES sources(idx),
    node        TEXT,                     -- NULL when the records name no node
    kind        TEXT NOT NULL,
    first_index INTEGER NOT NULL,
    count       INTEGER NOT NULL,
    min_ns      INTEGER,                  -- NULL when no record of the block has a time
    max_ns      INTEGER,
    data        BLOB NOT NULL
);
CREATE INDEX observation_blocks_by_time ON observation_blocks(min_ns, max_ns);
CREATE INDEX observation_blocks_by_node ON observation_blocks(node, min_ns);
CREATE INDEX observation_blocks_by_kind ON observation_blocks(kind, min_ns);
CREATE INDEX observation_blocks_by_source ON observation_blocks(source_idx, first_index);

-- One identity per rank, as the evidence states it (NCCL init lines).
CREATE TABLE ranks (
    rank        INTEGER PRIMARY KEY,
    node        TEXT,
    gpu         TEXT NOT NULL,            -- normalised PCI bus id, '' when unknown
    cuda_device INTEGER NOT NULL,
    pid         INTEGER NOT NULL,
    source_idx  INTEGER NOT NULL,
    line        INTEGER NOT NULL,
    byte_offset INTEGER NOT NULL
);

-- Metric series (PromQL snapshots), samples zstd-compressed as little-endian (int64 ns, float64 value) pairs.
CREATE TABLE metric_series (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    labels_json TEXT NOT NULL,
    node        TEXT,
    gpu         INTEGER NOT NULL,
    device      TEXT NOT NULL,
    source_idx  INTEGER NOT NULL,
    line        INTEGER NOT NULL,
    byte_offset INTEGER NOT NULL,
    samples     INTEGER NOT NULL,
    min_ns      INTEGER,
    max_ns      INTEGER,
    data        BLOB NOT NULL
);
CREATE INDEX metric_series_by_name ON metric_series(name, node);

-- Verdict runs: history, never overwritten or deleted. The first run is made when the case is created; each
-- re-run (new or edited rules, a newer engine) adds one.
CREATE TABLE runs (
    id               INTEGER PRIMARY KEY, -- 1, 2, ... in creation order
    created_at       TEXT NOT NULL,
    kind             TEXT NOT NULL,       -- 'create' | 'rerun'
    author           TEXT NOT NULL,
    catalog_name     TEXT NOT NULL,
    catalog_version  TEXT NOT NULL,
    catalog_hash     TEXT NOT NULL,       -- SHA-256 over the catalog's files
    rules_dir        TEXT NOT NULL,       -- where the catalog was loaded from
    engine_version   TEXT NOT NULL,
    importer_version TEXT NOT NULL,       -- the importer that built the evidence this run analysed
    fingerprint      TEXT NOT NULL,       -- that evidence's fingerprint (see imports.fingerprint)
    window_from_ns   INTEGER,             -- the analysis window asked for (--window), NULL when the scope's own
    window_to_ns     INTEGER,
    scope_json       TEXT NOT NULL,
    outcome          TEXT NOT NULL,
    domain           TEXT NOT NULL,
    subdomain        TEXT NOT NULL,
    summary          TEXT NOT NULL,
    confidence       REAL NOT NULL,
    cause_event      INTEGER,             -- events.idx of the cause, NULL when none
    verdict_json     TEXT NOT NULL,       -- the full verdict (resources/schema/verdict.schema.json)
    verdict_text     TEXT NOT NULL,       -- the same, as faultline-cli analyze prints it
    trace_json       TEXT NOT NULL,       -- the rule trace: events per rule, links per correlator, filtered count
    duration_ms      INTEGER NOT NULL
);

-- Every in-scope event of a run, with its provenance. Indexed by time, node and type.
CREATE TABLE events (
    run_id       INTEGER NOT NULL REFERENCES runs(id),
    idx          INTEGER NOT NULL,        -- index in the run's verdict (time order)
    time_ns      INTEGER,
    precision_ns INTEGER NOT NULL,
    quality      TEXT NOT NULL,
    node         TEXT,
    rank         INTEGER,
    gpu          TEXT NOT NULL,
    type         TEXT NOT NULL,
    rule_id      TEXT NOT NULL,
    role         TEXT NOT NULL,
    domain       TEXT NOT NULL,
    subdomain    TEXT NOT NULL,
    severity     TEXT NOT NULL,
    label        TEXT NOT NULL,
    source_idx   INTEGER NOT NULL,
    line         INTEGER NOT NULL,
    byte_offset  INTEGER NOT NULL,
    length       INTEGER NOT NULL,
    cause_of     INTEGER,                 -- idx of the event that explains this one, NULL when none
    relation     TEXT NOT NULL,           -- symptom | companion | precursor | confirmation | ''
    via          TEXT NOT NULL,           -- the correlator of that link
    fields_json  TEXT NOT NULL,
    PRIMARY KEY (run_id, idx)
);
CREATE INDEX events_by_time ON events(run_id, time_ns);
CREATE INDEX events_by_node ON events(run_id, node, time_ns);
CREATE INDEX events_by_type ON events(run_id, type, time_ns);

-- == version 2 ==

-- Line lookups read the last chunk before a line: the index carries seq so that is one probe, not a scan.
DROP INDEX chunks_by_line;
CREATE INDEX chunks_by_line ON chunks(file_id, first_line, seq);

-- A re-run whose import of the stored bytes differs from the stored import (a newer importer: another evidence
-- fingerprint) records a new import with its own observation blocks. A run and a block name their import; NULL
-- (rows written with schema 1) means the case's first import. Queries use the latest import's blocks.
ALTER TABLE runs ADD COLUMN import_id INTEGER REFERENCES imports(id);
ALTER TABLE observation_blocks ADD COLUMN import_id INTEGER REFERENCES imports(id);
CREATE INDEX observation_blocks_by_import ON observation_blocks(import_id, source_idx, first_index);

-- The rule catalogs the runs used, file by file (catalog.yaml, tables/*.yaml, packs/*.yaml), once per catalog hash,
-- so a run can be reproduced with its own rules whatever rules Faultline ships later. Runs of schema 1 have none.
CREATE TABLE catalog_files (
    catalog_hash TEXT NOT NULL,           -- runs.catalog_hash
    path         TEXT NOT NULL,           -- relative to the catalog's root
    content      BLOB NOT NULL,
    PRIMARY KEY (catalog_hash, path)
);

-- Annotations: bookmarks, notes and tags on an event or on a line of the evidence, and the case narrative. Each
-- carries an author and a time. Rows are never changed: an edit is a new row that names the one it supersedes,
-- and a removal is a new row of kind 'removed' that supersedes it; the history stays readable.
CREATE TABLE annotations (
    id         INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL,             -- bookmark | note | tag | narrative | removed
    target     TEXT NOT NULL,             -- case | event | line
    run_id     INTEGER REFERENCES runs(id), -- target 'event': the run and the event's idx in it
    event_idx  INTEGER,
    file_id    INTEGER REFERENCES files(id), -- target 'line' (and 'event': where the event was found)
    line       INTEGER,
    text       TEXT NOT NULL,             -- the note, the tag, the bookmark's title or the narrative (Markdown)
    author     TEXT NOT NULL,
    created_at TEXT NOT NULL,
    supersedes INTEGER REFERENCES annotations(id)
);
CREATE INDEX annotations_by_line ON annotations(file_id, line);
CREATE INDEX annotations_by_event ON annotations(run_id, event_idx);

-- Expectations: a reviewer marks a run's verdict as the expected one. The latest row is the case's expectation;
-- earlier rows stay as history. Rule regression compares new runs against it.
CREATE TABLE expectations (
    id         INTEGER PRIMARY KEY,
    run_id     INTEGER NOT NULL REFERENCES runs(id),
    outcome    TEXT NOT NULL,
    domain     TEXT NOT NULL,
    subdomain  TEXT NOT NULL,
    cause_type TEXT NOT NULL,             -- '' when the run had no cause
    cause_node TEXT NOT NULL,
    author     TEXT NOT NULL,
    created_at TEXT NOT NULL,
    note       TEXT NOT NULL
);

-- == version 3 ==

-- Annotations on every target the workbench shows: besides the case, an event and a line, a symptom, a node's lane
-- and a time range. An event is identified by its rule and the record it was made from (the file and line, and the
-- byte offset), so an annotation follows its event into later runs, whose event indices may differ; run_id and
-- event_idx keep the run it was made on (NULL when it was made on an analysis not stored as a run). New targets:
--   symptom: event_type is the symptom's type;   lane: node;   range: from_ns, to_ns, and node ('' or NULL: all).
-- A note or bookmark may carry tags (tags_json, a JSON array of strings); a 'tag' keeps its tag in text.
ALTER TABLE annotations ADD COLUMN rule_id TEXT;          -- event: the rule that made it
ALTER TABLE annotations ADD COLUMN event_type TEXT;       -- event: its type; symptom: the symptom's type
ALTER TABLE annotations ADD COLUMN byte_offset INTEGER;   -- event: the record's first byte in file_id
ALTER TABLE annotations ADD COLUMN node TEXT;             -- lane, range; event: the event's node
ALTER TABLE annotations ADD COLUMN from_ns INTEGER;       -- range: start; event: the event's time
ALTER TABLE annotations ADD COLUMN to_ns INTEGER;         -- range: end
ALTER TABLE annotations ADD COLUMN tags_json TEXT NOT NULL DEFAULT '[]';
-- Event annotations written before: the identity of the event they name, read from the run they name. Nothing
-- else of them changes; one whose run is gone keeps run_id and event_idx only.
UPDATE annotations SET
    rule_id     = (SELECT e.rule_id FROM events e WHERE e.run_id = annotations.run_id AND e.idx = annotations.event_idx),
    event_type  = (SELECT e.type FROM events e WHERE e.run_id = annotations.run_id AND e.idx = annotations.event_idx),
    byte_offset = (SELECT e.byte_offset FROM events e WHERE e.run_id = annotations.run_id AND e.idx = annotations.event_idx),
    node        = (SELECT e.node FROM events e WHERE e.run_id = annotations.run_id AND e.idx = annotations.event_idx),
    from_ns     = (SELECT e.time_ns FROM events e WHERE e.run_id = annotations.run_id AND e.idx = annotations.event_idx)
WHERE target = 'event' AND run_id IS NOT NULL;
CREATE INDEX annotations_by_record ON annotations(file_id, byte_offset);

-- == version 4 ==

-- The story: the ordered steps a postmortem walks through, each a state of the workbench's views and a short text.
-- Every save writes a new revision holding the whole story; rows are never changed or deleted, so every earlier
-- story stays readable. The latest revision is the story. A new case starts with revision 1, the story proposed
-- from its first run's verdict. A save names the revision it was edited from and is refused when another revision
-- was written meanwhile (story-conflict): a story is never overwritten unseen.
CREATE TABLE story_revisions (
    revision   INTEGER PRIMARY KEY,       -- 1, 2, ... in save order
    author     TEXT NOT NULL,
    created_at TEXT NOT NULL,
    change     TEXT NOT NULL              -- what the save did: 'proposed from run 1', 'added step 3', ...
);

-- The steps of each revision, in order. state_json is the view state the step restores (a JSON object; members
-- left out leave that part of the view as it is): from_ns, to_ns (the timeline's window), expanded_lanes (nodes),
-- top_lane, event (the selected event, named as an event annotation names it: rule, path, line, byte_offset of its
-- record in that file, and type, node, time_ns), lane, symptom (a symptom's type), evidence_path and
-- evidence_lines (the file the evidence viewer shows and its highlighted lines), panes (the open panes by name),
-- clocks_aligned.
CREATE TABLE story_steps (
    revision   INTEGER NOT NULL REFERENCES story_revisions(revision),
    position   INTEGER NOT NULL,          -- 1-based order within the revision
    title      TEXT NOT NULL,
    text       TEXT NOT NULL,             -- Markdown
    state_json TEXT NOT NULL,
    origin     TEXT NOT NULL,             -- 'proposed' (built from a verdict) | 'user'
    PRIMARY KEY (revision, position)
);

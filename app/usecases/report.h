// SPDX-License-Identifier: Apache-2.0
// A saved case as a postmortem report: the verdict, its coverage, the cause and what it explains, the case's story
// (its latest revision: each step's title, text, window, selected event and picture), the evidence trail with each
// line's file:line and the file's SHA-256, the narrative and the annotations, and the versions that made it. The
// case's evidence is re-analysed with its latest run's own rules (as opening it does); the report says whether that
// reproduces the stored run, and finds the annotations' and the steps' events again in that re-analysis by their
// rule and record. Markdown, or one self-contained HTML file. Qt-free: the CLI's `report` and the workbench call it.
//
// Pictures. A report has places for pictures (PictureSlot: the timeline of the cause and the symptoms it explains,
// and one per step of the story). This layer draws nothing: a front end that can draw (the workbench's
// renderer) reads the draft's slots, draws each from the draft's analysis and hands the PNGs back to
// renderCaseReport. A slot with no picture renders as nothing. HTML carries its pictures inline as data: URIs (one
// self-contained file); Markdown links them as files beside the report, REPORT.assets/ID.png, relative to the
// report's directory, so the text stays readable and a Markdown viewer shows them (PictureLinks::Inline gives data:
// URIs instead).
#pragma once

#include "app/usecases/use_cases.h"
#include "core/model/case_records.h"
#include "core/redact/redaction.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace faultline::usecases {

enum class ReportFormat { Markdown, Html };

struct ReportRequest
{
    std::string casePath;
    ReportFormat format = ReportFormat::Markdown;
    std::string currentRulesDir; ///< used when the case does not hold its run's rules
    unsigned threads = 0;
    /// Redacts every text of the report with this profile, with the pseudonyms a redacted copy of the same case
    /// gets (redact.h); none: the report is not redacted.
    std::optional<core::RedactionProfile> redaction;
};

/// The report's text. Fails with Case (the case cannot be read), Usage (a redaction profile with errors) or
/// Cancelled. A redacted copy's report gives each file's SHA-256 in the original, which its copy records.
/// The same as prepareCaseReport then renderCaseReport without pictures.
Result<std::string> caseReport(const ReportRequest& request, const Task& task = {});

/// A place in the report for one picture: a timeline of [fromNs, toNs] with `focusEvent` selected (its links to
/// what it explains drawn).
struct PictureSlot
{
    std::string id; ///< "cause-window", "story-N" (step N); names its file (ID.png), matches ReportPicture::id
    std::string caption; ///< what the picture shows (redacted with the report)
    std::int64_t fromNs = INT64_MIN;
    std::int64_t toNs = INT64_MIN;
    std::optional<std::size_t> focusEvent; ///< an index into the analysis's verdict events
    std::vector<std::string> expandedLanes; ///< the nodes whose GPU and rank sub-lanes are shown open
};

/// A drawn picture for the slot of the same id.
struct ReportPicture
{
    std::string id;
    std::string png; ///< the PNG file's bytes
    int width = 0; ///< the size to show it at, in CSS pixels (the PNG may hold more pixels, for print)
    int height = 0;
};

/// One block of a report, which every format renders: a heading, a "label: value" fact, a paragraph, a table, a
/// verbatim excerpt, or a picture's place (`text` is the slot's id, `label` its caption). Texts are plain; each
/// renderer escapes them.
struct ReportBlock
{
    enum class Kind { Heading, Fact, Paragraph, Table, Excerpt, Picture };
    Kind kind = Kind::Paragraph;
    std::string label;
    std::string text;
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    int level = 2; ///< Heading: 1 the report's title, 2 a section, 3 a part of one (a story's step)
};

/// A case read for its report, once: its blocks (redacted when asked), the analysis the pictures are drawn from and
/// the slots they fill. Immutable once returned, but for `redactor`.
struct ReportDraft
{
    std::string title; ///< "Postmortem: NAME.faultline" (redacted)
    std::vector<ReportBlock> blocks;
    std::vector<PictureSlot> pictures;
    Analysis analysis; ///< the re-analysis the report describes (its texts are not redacted)
    /// The case's current annotations and how each one resolved against `analysis` (parallel to them), which the
    /// pictures draw as the workbench's timeline does: pins, lane badges and bands. Not redacted.
    std::vector<core::Annotation> annotations;
    std::vector<core::AnnotationResolution> resolutions;
    /// Set when the report is redacted: a picture's texts (node names on its lanes, the cause's label) must pass it
    /// as well. A Redactor is mutable: use it from one thread at a time.
    std::shared_ptr<core::Redactor> redactor;
};

/// Reads and re-analyses the case and builds the report's blocks (request.format is not used). Fails as caseReport.
Result<ReportDraft> prepareCaseReport(const ReportRequest& request, const Task& task = {});

enum class PictureLinks {
    Inline, ///< data: URIs inside the text
    Files, ///< links to ReportAsset files, assetDir/ID.png, which the caller writes beside the report
};

struct RenderOptions
{
    ReportFormat format = ReportFormat::Markdown;
    PictureLinks links = PictureLinks::Inline;
    std::string assetDir; ///< PictureLinks::Files: the links' directory, relative to the report's
    std::string style; ///< HTML: the page's CSS; empty: the one for browsers (a print layout brings its own)
};

/// A file a rendered report links to, its path relative to the report's directory.
struct ReportAsset
{
    std::string path;
    std::string bytes;
};

struct RenderedReport
{
    std::string text;
    std::vector<ReportAsset> assets; ///< PictureLinks::Files: the pictures, to be written beside the report
};

/// Renders the draft with whichever pictures are given (matched to the slots by id; the others are left out).
RenderedReport renderCaseReport(
    const ReportDraft& draft, const std::vector<ReportPicture>& pictures, const RenderOptions& options);

/// The options a report written at `reportPath` uses: HTML inline; Markdown with files in NAME.assets/ beside it
/// (NAME: the report's file name without its extension).
RenderOptions renderOptionsFor(ReportFormat format, const std::string& reportPath);

struct WrittenReport
{
    std::string path;
    std::uintmax_t bytes = 0; ///< the report and its assets
    std::vector<std::string> assets; ///< the asset files written, as paths
};

/// Writes the report at `outPath` and its assets relative to its directory. Refuses (Usage) to write over the case
/// `casePath` or over any other case file (a SQLite database); fails with Usage when a file cannot be written.
Result<WrittenReport> writeCaseReport(
    const RenderedReport& report, const std::string& outPath, const std::string& casePath);

/// Why `outPath` must not receive a report of `casePath`: it is that case, or another case file; "" when it may.
std::string reportTargetProblem(const std::string& outPath, const std::string& casePath);

} // namespace faultline::usecases

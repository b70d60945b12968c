// SPDX-License-Identifier: Apache-2.0
// The workbench's rule catalog: the bundled catalog, the user's own packs and the Rule Packs setting's directories,
// loaded off the UI thread at start and on an explicit reload, never otherwise. Analyses take the catalog of the last
// load that succeeded (until one has, the first load's result), so a failed reload leaves the catalog in use as it
// was, and an analysis keeps the catalog it started with. Thread affinity: the object lives on the UI thread; its
// signals are emitted there.
#pragma once

#include "core/rules/rule_catalog.h"

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QThreadPool>

#include <vector>

namespace faultline::app {

class CatalogController : public QObject
{
    Q_OBJECT
public:
    /// `bundledDir`: the bundled catalog (or another whole catalog). Nothing is loaded until reload().
    explicit CatalogController(QString bundledDir, QObject* parent = nullptr);
    ~CatalogController() override;

    QString bundledDir() const { return m_bundledDir; }
    /// The user's own pack directory ($XDG_CONFIG_HOME/faultline/rules), read when it exists and userPacks() is on.
    QString userDir() const;
    /// The Rule Packs setting: directories layered after the user's own, lowest first. Takes effect on reload().
    void setPackDirs(const QStringList& dirs) { m_packDirs = dirs; }
    QStringList packDirs() const { return m_packDirs; }
    void setUserPacks(bool on) { m_userPacks = on; }
    bool userPacks() const { return m_userPacks; }
    /// In-memory texts (an editor's unsaved buffers) read instead of the files they stand for. Take effect on reload().
    void setTexts(std::vector<core::CatalogText> texts) { m_texts = std::move(texts); }
    /// What reload() loads.
    core::CatalogSources sources() const;

    /// Loads sources() off the UI thread; `loaded` follows. A reload while one runs supersedes it.
    void reload();
    bool isLoading() const { return m_loading; }
    /// The catalog analyses use: the last successful load (before any, the first load, which may still be running
    /// or may have failed). Invalid before the first reload().
    QFuture<core::CatalogLoadResult> catalog() const { return m_current; }
    core::CatalogSources catalogSources() const { return m_currentSources; }
    /// The latest finished load, successful or not (its diagnostics), and the sources it read.
    const core::CatalogLoadResult& lastResult() const { return m_last; }
    core::CatalogSources lastSources() const { return m_lastSources; }

    /// "catalog NAME VERSION (HASH) + packs: user packs, site" for a status line. The packs are named from
    /// `loadedFrom` (RuleCatalog::loadedFrom, or a run's record of it: a case's stored rules are read from a temporary
    /// copy), the catalog's own when empty.
    QString describe(const core::RuleCatalog& catalog, const std::string& loadedFrom = {}) const;
    /// The pack layers a catalog was built with, one line each ("DIR: 2 added, 1 overridden, 0 disabled").
    static QString layersText(const core::RuleCatalog& catalog);

Q_SIGNALS:
    void loadStarted();
    /// A load finished. `ok`: catalog() is now its result; otherwise catalog() is unchanged (or, before any load
    /// succeeded, the failed one) and lastResult() holds the errors.
    void loaded(bool ok);

private:
    QString m_bundledDir;
    QStringList m_packDirs;
    bool m_userPacks = true;
    std::vector<core::CatalogText> m_texts;
    QThreadPool m_pool;
    QFuture<core::CatalogLoadResult> m_current;
    core::CatalogSources m_currentSources;
    core::CatalogLoadResult m_last;
    core::CatalogSources m_lastSources;
    bool m_everSucceeded = false;
    bool m_loading = false;
    quint64 m_generation = 0;
};

} // namespace faultline::app

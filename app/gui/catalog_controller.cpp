// SPDX-License-Identifier: Apache-2.0
#include "app/gui/catalog_controller.h"

#include "app/common/rules_location.h"

#include <QDir>
#include <QFileInfo>
#include <QtConcurrent>

namespace faultline::app {

CatalogController::CatalogController(QString bundledDir, QObject* parent)
    : QObject(parent)
    , m_bundledDir(std::move(bundledDir))
{
    m_pool.setMaxThreadCount(1);
}

CatalogController::~CatalogController()
{
    m_pool.waitForDone();
}

QString CatalogController::userDir() const
{
    return QString::fromStdString(userRulesDir());
}

core::CatalogSources CatalogController::sources() const
{
    core::CatalogSources s;
    s.root = m_bundledDir.toStdString();
    if (m_userPacks)
        if (const QString user = userDir(); !user.isEmpty() && QFileInfo(user).isDir())
            s.packDirs.push_back(user.toStdString());
    for (const QString& dir : m_packDirs)
        s.packDirs.push_back(dir.toStdString());
    s.texts = m_texts;
    return s;
}

void CatalogController::reload()
{
    const quint64 generation = ++m_generation;
    const core::CatalogSources sources = this->sources();
    QFuture<core::CatalogLoadResult> future =
        QtConcurrent::run(&m_pool, [sources] { return core::RuleCatalog::load(sources); });
    // Until a load has succeeded, analyses wait for this one (and report its errors if it fails).
    if (!m_everSucceeded) {
        m_current = future;
        m_currentSources = sources;
    }
    m_loading = true;
    Q_EMIT loadStarted();
    auto* watcher = new QFutureWatcher<core::CatalogLoadResult>(this);
    connect(watcher, &QFutureWatcher<core::CatalogLoadResult>::finished, this,
        [this, watcher, future, sources, generation] {
            watcher->deleteLater();
            if (generation != m_generation)
                return; // a newer reload supersedes this one
            m_loading = false;
            m_last = future.result();
            m_lastSources = sources;
            const bool ok = m_last.ok();
            if (ok) {
                m_current = future;
                m_currentSources = sources;
                m_everSucceeded = true;
            }
            Q_EMIT loaded(ok);
        });
    watcher->setFuture(future);
}

QString CatalogController::describe(const core::RuleCatalog& catalog, const std::string& loadedFrom) const
{
    QString text = tr("catalog %1 %2 (%3)")
                       .arg(QString::fromStdString(catalog.name()), QString::fromStdString(catalog.version()),
                           QString::fromStdString(catalog.contentHash().substr(0, 12)));
    // loadedFrom: "ROOT + DIR + DIR (unsaved: packs/x.yaml)"; the pack layers are all but the first.
    const QStringList places = QString::fromStdString(loadedFrom.empty() ? catalog.loadedFrom() : loadedFrom)
                                   .split(QStringLiteral(" + "), Qt::SkipEmptyParts);
    QStringList packs;
    const QString user = QDir::cleanPath(userDir());
    for (qsizetype i = 1; i < places.size(); ++i) {
        QString dir = places[i];
        const qsizetype unsaved = dir.indexOf(QStringLiteral(" (unsaved:"));
        if (unsaved >= 0)
            dir.truncate(unsaved);
        dir = QDir::cleanPath(dir);
        packs << (dir == user ? tr("user packs") : QFileInfo(dir).fileName())
                + (unsaved >= 0 ? tr(" (unsaved)") : QString());
    }
    if (!packs.isEmpty())
        text += tr(" + packs: %1").arg(packs.join(QStringLiteral(", ")));
    return text;
}

QString CatalogController::layersText(const core::RuleCatalog& catalog)
{
    QStringList lines;
    for (std::size_t i = 1; i < catalog.layers().size(); ++i) {
        const auto& l = catalog.layers()[i];
        if (l.files == 0)
            continue;
        lines << tr("%1: %2 added, %3 overridden, %4 disabled")
                     .arg(QString::fromStdString(l.dir))
                     .arg(l.added)
                     .arg(l.overridden)
                     .arg(l.disabled);
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace faultline::app

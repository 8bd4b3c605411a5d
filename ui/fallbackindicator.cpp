#include "fallbackindicator.h"

#include "appearance.h"
#include "models/fallbackstatus.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"

#include <QHBoxLayout>
#include <QLabel>

namespace switchyard::ui {

FallbackIndicator::FallbackIndicator(PoolManager* manager, QWidget* parent)
    : QFrame(parent)
    , m_manager(manager)
    , m_icon(new QLabel(this))
    , m_text(new QLabel(this))
{
    setObjectName(QStringLiteral("fallbackIndicator"));
    m_text->setFont(withPointSize(font(), headerPointSize, true));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 4, 14, 4);
    layout->setSpacing(8);
    layout->addWidget(m_icon);
    layout->addWidget(m_text);

    m_coalesce.setSingleShot(true);
    m_coalesce.setInterval(0);
    connect(&m_coalesce, &QTimer::timeout, this, &FallbackIndicator::refresh);
    m_expiry.setInterval(1000);
    connect(&m_expiry, &QTimer::timeout, this, &FallbackIndicator::refresh);
    m_expiry.start();
    connect(m_manager, &PoolManager::poolsReplaced, this, &FallbackIndicator::adoptPools);
    adoptPools();
}

void FallbackIndicator::adoptPools()
{
    for (const std::shared_ptr<NetworkPool>& pool : m_manager->pools()) {
        connect(pool.get(), &NetworkPool::nodeChanged, this, &FallbackIndicator::scheduleRefresh,
                Qt::UniqueConnection);
        connect(pool.get(), &NetworkPool::failoversChanged, this,
                &FallbackIndicator::scheduleRefresh, Qt::UniqueConnection);
    }
    refresh();
}

void FallbackIndicator::scheduleRefresh()
{
    if (!m_coalesce.isActive())
        m_coalesce.start();
}

void FallbackIndicator::setNetwork(const QString& network)
{
    m_network = network;
    refresh();
}

QString FallbackIndicator::text() const
{
    return m_headline;
}

void FallbackIndicator::refresh()
{
    const FallbackStatus status = fallbackStatus(*m_manager, m_network);
    m_active = status.active;
    const int iconSize = m_text->fontMetrics().height() + 4;
    // The calm check means "every first choice serves": with nothing watched it would say
    // all is well about nothing.
    const bool watching = !m_manager->pools().isEmpty();
    m_iconName = status.down()   ? QStringLiteral("severity-critical")
                 : status.active ? QStringLiteral("fallback-active")
                 : watching      ? QStringLiteral("fallback-calm")
                                 : QStringLiteral("state-not-probed");
    m_icon->setPixmap(themeIcon(m_iconName).pixmap(iconSize, iconSize));
    m_headline = status.headline;
    // A verdict naming two networks goes on two lines ("Fallback active:" over the names): on
    // one, it left a 1366 px toolbar no room for its buttons.
    QString shown = status.headline;
    constexpr int oneLine = 30;
    if (shown.size() > oneLine) {
        qsizetype at = shown.indexOf(QStringLiteral(": "));
        if (at < 0)
            at = shown.lastIndexOf(QStringLiteral(", "));
        if (at >= 0)
            shown = shown.left(at + 1) + QLatin1Char('\n') + shown.mid(at + 2);
    }
    m_text->setText(shown);
    setToolTip(status.explanation);
    const QString sheet =
        status.down()   ? QStringLiteral("#fallbackIndicator { background: #fdecea; border: 2px "
                                           "solid #b3261e; border-radius: 6px; } QLabel { color: "
                                           "#8c1d18; }")
        : status.active ? QStringLiteral("#fallbackIndicator { background: #fff3e0; border: 2px "
                                         "solid #b35f00; border-radius: 6px; } QLabel { color: "
                                         "#6d3a00; }")
        : watching      ? QStringLiteral("#fallbackIndicator { border: 2px solid transparent; } "
                                              "QLabel { color: #1f3b2a; }")
                        : QStringLiteral("#fallbackIndicator { border: 2px solid transparent; } "
                                              "QLabel { color: #444444; }");
    // Refreshed every second: a style sheet set again, even the same, is parsed and every
    // label re-polished.
    if (sheet != styleSheet())
        setStyleSheet(sheet);
}

} // namespace switchyard::ui

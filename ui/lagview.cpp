#include "lagview.h"

#include "charts/lagchart.h"
#include "emptystate.h"
#include "models/fallbackstatus.h"
#include "models/lagrecorder.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"

#include <QVBoxLayout>

namespace switchyard::ui {

LagView::LagView(PoolManager* manager, LagRecorder* recorder, QWidget* parent)
    : QWidget(parent)
    , m_manager(manager)
    , m_recorder(recorder)
    , m_layout(new QVBoxLayout(this))
    , m_empty(new EmptyState(tr("No lag history"),
                             tr("Slot and block lag of every node over the last 15 minutes is "
                                "drawn here once nodes are configured and probed."),
                             this))
{
    m_layout->setContentsMargins(8, 8, 8, 8);
    m_layout->setSpacing(8);
    m_layout->addWidget(m_empty);
    m_throttle.setSingleShot(true);
    m_throttle.setInterval(1000);
    connect(&m_throttle, &QTimer::timeout, this, &LagView::redraw);
    m_slide.setInterval(5000);
    connect(&m_slide, &QTimer::timeout, this, &LagView::redraw);
    m_slide.start();
    connect(m_recorder, &LagRecorder::recorded, this, &LagView::scheduleRedraw);
    connect(m_manager, &PoolManager::poolsReplaced, this, &LagView::rebuild);
    rebuild();
}

void LagView::setNetwork(const QString& network)
{
    if (network == m_network)
        return;
    m_network = network;
    rebuild();
}

void LagView::rebuild()
{
    qDeleteAll(m_charts);
    m_charts.clear();
    for (const std::shared_ptr<NetworkPool>& pool : m_manager->pools()) {
        if (!networkMatches(m_network, pool->config().name))
            continue;
        auto* chart = new charts::LagChart(pool->config(), m_recorder, this);
        m_layout->addWidget(chart, 1);
        m_charts.append(chart);
    }
    m_empty->setVisible(m_charts.isEmpty());
}

void LagView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    redraw();
}

void LagView::scheduleRedraw()
{
    if (!m_throttle.isActive())
        m_throttle.start();
}

void LagView::redraw()
{
    if (!isVisible())
        return; // drawn when shown: the charts catch up from the history
    for (charts::LagChart* chart : std::as_const(m_charts))
        chart->redraw();
}

} // namespace switchyard::ui

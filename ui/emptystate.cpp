#include "emptystate.h"

#include <QIcon>
#include <QLabel>
#include <QVBoxLayout>

namespace switchyard::ui {

EmptyState::EmptyState(const QString& headline, const QString& explanation, QWidget* parent)
    : QWidget(parent)
    , m_headline(new QLabel(headline, this))
    , m_explanation(new QLabel(explanation, this))
{
    auto* icon = new QLabel(this);
    icon->setPixmap(QIcon(QStringLiteral(":/switchyard/switchyard.svg")).pixmap(96, 96));
    icon->setAlignment(Qt::AlignCenter);
    icon->setEnabled(false); // drawn greyed out: nothing here is live

    QFont headlineFont = m_headline->font();
    headlineFont.setPointSizeF(headlineFont.pointSizeF() * 1.8);
    headlineFont.setBold(true);
    m_headline->setFont(headlineFont);
    m_headline->setAlignment(Qt::AlignCenter);

    QFont explanationFont = m_explanation->font();
    explanationFont.setPointSizeF(explanationFont.pointSizeF() * 1.25);
    m_explanation->setFont(explanationFont);
    m_explanation->setAlignment(Qt::AlignCenter);
    m_explanation->setWordWrap(true);
    m_explanation->setMaximumWidth(720);

    auto* layout = new QVBoxLayout(this);
    layout->addStretch(2);
    layout->addWidget(icon);
    layout->addSpacing(16);
    layout->addWidget(m_headline);
    layout->addWidget(m_explanation, 0, Qt::AlignHCenter);
    layout->addStretch(3);
}

QString EmptyState::headline() const
{
    return m_headline->text();
}

QString EmptyState::explanation() const
{
    return m_explanation->text();
}

} // namespace switchyard::ui

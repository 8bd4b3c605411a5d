#include "emptystate.h"

#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>

namespace switchyard::ui {

EmptyState::EmptyState(const QString& headline, const QString& explanation, QWidget* parent)
    : QWidget(parent)
    , m_headline(new QLabel(headline, this))
    , m_explanation(new QLabel(explanation, this))
    , m_buttons(new QHBoxLayout)
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
    // A wrapped label left to its own size hint wraps at a few words a line (seen under X at
    // 1366 px: six lines of a sentence); a paragraph's measure reads better.
    m_explanation->setMinimumWidth(
        std::min(720, QFontMetrics(explanationFont).averageCharWidth() * 40));
    m_explanation->setMaximumWidth(720);

    auto* layout = new QVBoxLayout(this);
    layout->addStretch(2);
    layout->addWidget(icon);
    layout->addSpacing(16);
    layout->addWidget(m_headline);
    // Centred by stretches rather than by an alignment flag: an aligned item is given a narrower
    // width than the one its wrapped height was computed for, and loses its last lines.
    auto* explanationRow = new QHBoxLayout;
    explanationRow->addStretch();
    explanationRow->addWidget(m_explanation);
    explanationRow->addStretch();
    layout->addLayout(explanationRow);
    layout->addSpacing(24);
    m_buttons->setSpacing(24);
    m_buttons->addStretch();
    m_buttons->addStretch();
    layout->addLayout(m_buttons);
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

void EmptyState::setText(const QString& headline, const QString& explanation)
{
    m_headline->setText(headline);
    m_explanation->setText(explanation);
}

QPushButton* EmptyState::addButton(const QString& text, const QIcon& icon)
{
    auto* button = new QPushButton(icon, text, this);
    QFont font = button->font();
    font.setPointSizeF(font.pointSizeF() * 1.3);
    button->setFont(font);
    button->setIconSize(QSize(28, 28));
    button->setMinimumHeight(button->fontMetrics().height() * 2 + 8);
    button->setMinimumWidth(button->fontMetrics().horizontalAdvance(text) + 96);
    m_buttons->insertWidget(m_buttons->count() - 1, button);
    return button;
}

} // namespace switchyard::ui

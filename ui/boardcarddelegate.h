#pragma once

#include "models/pendingboardmodel.h"

#include <QHash>
#include <QPixmap>
#include <QStyledItemDelegate>

namespace switchyard::ui {

QColor boardColumnColor(BoardColumn column); // dark enough to read as text on white
QColor txStateColor(tracking::TxState state);

// Paints one card of the pending-transaction board from a PendingBoardModel index: the short
// id in large monospace, the state (icon and word), age, intent, network, attempts, last node,
// and for a pending Solana transaction a bar of the blocks left before its blockhash expires,
// with the number. Every card has the same height, so a list of 10,000 lays out at once.
class BoardCardDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    explicit BoardCardDelegate(QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    // The card's height for a view's font: what sizeHint gives every card.
    static int cardHeight(const QFont& font);
    // The narrowest card in which every state word ("Transport unknown") is whole, in the
    // smallest type a state word steps down to.
    static int minimumCardWidth(const QFont& font);
    // The largest of those types in which `word` fits `width`.
    static QFont stateWordFont(const QFont& font, const QString& word, int width);

private:
    struct Fonts
    {
        QFont id;
        QFont strong;
        QFont text;
    };
    static Fonts fontsFor(const QFont& base);
    // Icons are SVG: rendering one per card per paint would parse it every time.
    QPixmap icon(const QString& name, int size, qreal devicePixelRatio) const;

    mutable QHash<QString, QPixmap> m_icons;
};

} // namespace switchyard::ui

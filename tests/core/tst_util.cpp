// SPDX-License-Identifier: Apache-2.0
#include "core/rules/template.h"
#include "core/util/json_spans.h"
#include "core/util/json_writer.h"
#include "core/util/sha256.h"

#include <QTest>

using namespace faultline::core;

class TstUtil : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sha256()
    {
        QCOMPARE(Sha256::hex(""), std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        QCOMPARE(Sha256::hex("abc"), std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        const std::string million(1000000, 'a');
        QCOMPARE(Sha256::hex(million), std::string("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
        Sha256 split;
        split.update("ab");
        split.update("c");
        QCOMPARE(split.hexDigest(), Sha256::hex("abc"));
    }
    void jsonEscapesAndKeepsInvalidBytesVisible()
    {
        JsonWriter w(false);
        w.beginObject()
            .field("a", std::string("q\"\\\n\x01"))
            .field("bad", std::string("ok \xff\xfe end"))
            .field("utf8", "µs");
        w.key("n").null().endObject();
        QCOMPARE(w.str(),
            std::string(
                "{\"a\":\"q\\\"\\\\\\n\\u0001\",\"bad\":\"ok \\\\xff\\\\xfe end\",\"utf8\":\"µs\",\"n\":null}"));
        QCOMPARE(escapeForDisplay("a\xc3\x28z"), std::string("a\\xc3(z"));
    }
    void jsonSpansKeepEveryByteTheyDoNotEdit()
    {
        const std::string text = "{\"file\": \"a\\\"b\\u00e9\\n\", \"n\": [1, -2.5e3, true, null],\n  \"o\": {}}";
        const auto tree = parseJsonSpans(text);
        QVERIFY(tree);
        QCOMPARE(static_cast<int>(tree->type), static_cast<int>(JsonSpan::Type::Object));
        const JsonSpan* file = tree->member("file");
        QVERIFY(file);
        QCOMPARE(file->text, std::string("a\"b\xc3\xa9\n"));
        QCOMPARE(text.substr(file->begin, file->end - file->begin), std::string("\"a\\\"b\\u00e9\\n\""));
        const JsonSpan* n = tree->member("n");
        QVERIFY(n && n->items.size() == 4);
        QCOMPARE(n->items[1].text, std::string("-2.5e3"));
        // Replacing one value leaves whitespace, order and the other values as they were.
        const std::string edited = applySpanEdits(text, { { n->items[0].begin, n->items[0].end, "42" } });
        QCOMPARE(
            edited, std::string("{\"file\": \"a\\\"b\\u00e9\\n\", \"n\": [42, -2.5e3, true, null],\n  \"o\": {}}"));
        for (const char* bad : { "", "{", "{\"a\" 1}", "[1,]", "\"\\x\"", "{} x", "nul" })
            QVERIFY2(!parseJsonSpans(bad), bad);
    }
    void pciNormalisation_data()
    {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("out");
        QTest::addRow("nvrm") << "PCI:0000:c3:00"
                              << "0000:c3:00.0";
        QTest::addRow("old-nvrm") << "0000:03:00"
                                  << "0000:03:00.0";
        QTest::addRow("dcgm") << "00000000:C3:00.0"
                              << "0000:c3:00.0";
        QTest::addRow("nccl-busid") << "c3000"
                                    << "0000:c3:00.0";
        QTest::addRow("nccl-busid-domain") << "11b000"
                                           << "0001:1b:00.0";
        QTest::addRow("sysfs") << "+pci:0000:ab:00.1"
                               << "0000:ab:00.1";
        QTest::addRow("garbage") << "node-02"
                                 << "";
    }
    void pciNormalisation()
    {
        QFETCH(QString, in);
        QFETCH(QString, out);
        QCOMPARE(QString::fromStdString(normalisePci(in.toStdString())), out);
    }
    void templates()
    {
        std::map<std::string, std::string> f { { "code", "149" }, { "intr", "0x021475c6" }, { "host", "NODE-02" } };
        FieldLookup lookup = [&](std::string_view k) -> const std::string* {
            auto it = f.find(std::string(k));
            return it == f.end() ? nullptr : &it->second;
        };
        QCOMPARE(expandTemplate("Xid {code} {missing|default:none}", lookup), std::string("Xid 149 none"));
        QCOMPARE(expandTemplate("{intr|bits:20:25}", lookup), std::string("33"));
        QCOMPARE(expandTemplate("{host|lower}", lookup), std::string("node-02"));
        QCOMPARE(expandTemplate("open {brace", lookup), std::string("open {brace"));
    }
};

QTEST_GUILESS_MAIN(TstUtil)
#include "tst_util.moc"

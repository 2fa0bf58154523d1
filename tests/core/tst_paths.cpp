// fisura/paths.h: an output is recognised as an input whatever the spelling (symbolic links,
// "..", "./", a hard link), and distinct files are never confused.
#include <QtTest>

#include <QTemporaryDir>

#include <filesystem>
#include <fstream>

#include "fisura/paths.h"

using namespace fisura;
namespace fs = std::filesystem;

class TstPaths : public QObject
{
    Q_OBJECT

    QTemporaryDir tmp_;
    std::string dir_;

    std::string at(const std::string& relative) const
    {
        return relative.empty() ? std::string() : dir_ + "/" + relative;
    }
    std::string at(const QString& relative) const { return at(relative.toStdString()); }
    std::string at(const char* relative) const { return at(std::string(relative)); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        dir_ = tmp_.path().toStdString();
        fs::create_directories(dir_ + "/sub/deeper");
        std::ofstream(dir_ + "/model.fisura") << "model";
        std::ofstream(dir_ + "/other.fisura") << "model";
        fs::create_symlink(dir_ + "/model.fisura", dir_ + "/link.fisura");
        fs::create_directory_symlink(dir_ + "/sub", dir_ + "/sublink");
        std::ofstream(dir_ + "/sub/scan.tif") << "scan";
        fs::create_hard_link(dir_ + "/sub/scan.tif", dir_ + "/hard.tif");
    }

    void sameFile_data()
    {
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("input");
        QTest::addColumn<bool>("same");
        QTest::newRow("identical") << "model.fisura"
                                   << "model.fisura" << true;
        QTest::newRow("dot-dot") << "sub/../model.fisura"
                                 << "model.fisura" << true;
        QTest::newRow("dot") << "./sub/./scan.tif"
                             << "sub/scan.tif" << true;
        QTest::newRow("symlink to the file") << "link.fisura"
                                             << "model.fisura" << true;
        QTest::newRow("symlinked folder") << "sublink/scan.tif"
                                          << "sub/scan.tif" << true;
        QTest::newRow("hard link") << "hard.tif"
                                   << "sub/scan.tif" << true;
        QTest::newRow("new file through a symlinked folder") << "sublink/new.tif"
                                                             << "sub/new.tif" << true;
        QTest::newRow("new file, dot-dot") << "sub/deeper/../new.tif"
                                           << "sub/new.tif" << true;
        QTest::newRow("another file, same content") << "other.fisura"
                                                    << "model.fisura" << false;
        QTest::newRow("new file beside an input") << "model.fisura.tif"
                                                  << "model.fisura" << false;
        QTest::newRow("a folder and a file in it") << "sub"
                                                   << "sub/scan.tif" << false;
        QTest::newRow("empty output") << ""
                                      << "model.fisura" << false;
        QTest::newRow("empty input") << "model.fisura"
                                     << "" << false;
    }

    void sameFile()
    {
        QFETCH(QString, output);
        QFETCH(QString, input);
        QFETCH(bool, same);
        QCOMPARE(fisura::sameFile(at(output), at(input)), same);
        QCOMPARE(fisura::sameFile(at(input), at(output)), same);
        const Status s = refuseOverwritingInputs({at(output)}, {at("sub/deeper"), at(input)});
        QCOMPARE(s.isOk(), !same);
        if (same) {
            QCOMPARE(s.code(), ErrorCode::InvalidArgument);
            QVERIFY2(s.detail().find(at(output)) != std::string::npos, s.detail().c_str());
            QVERIFY2(s.detail().find(at(input)) != std::string::npos, s.detail().c_str());
        }
    }

    void relativeAndAbsoluteSpellingsMatch()
    {
        const fs::path cwd = fs::current_path();
        fs::current_path(dir_ + "/sub");
        const bool same = fisura::sameFile("../model.fisura", dir_ + "/model.fisura");
        const bool newSame = fisura::sameFile("new.tif", dir_ + "/sub/new.tif");
        fs::current_path(cwd);
        QVERIFY(same);
        QVERIFY(newSame);
    }

    void insideFolder_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("folder");
        QTest::addColumn<bool>("inside");
        QTest::newRow("direct") << "sub/scan.tif"
                                << "sub" << true;
        QTest::newRow("deeper") << "sub/deeper/x.tif"
                                << "sub" << true;
        QTest::newRow("through a symlinked folder") << "sublink/x.tif"
                                                    << "sub" << true;
        QTest::newRow("dot-dot out of it") << "sub/../x.tif"
                                           << "sub" << false;
        QTest::newRow("the folder itself") << "sub"
                                           << "sub" << false;
        QTest::newRow("a sibling with a longer name") << "subway/x.tif"
                                                      << "sub" << false;
        QTest::newRow("empty") << ""
                               << "sub" << false;
    }

    void insideFolder()
    {
        QFETCH(QString, path);
        QFETCH(QString, folder);
        QFETCH(bool, inside);
        QCOMPARE(isInsideFolder(at(path), at(folder)), inside);
    }

    void emptyListsRefuseNothing()
    {
        QVERIFY(refuseOverwritingInputs({}, {at("model.fisura")}).isOk());
        QVERIFY(refuseOverwritingInputs({at("model.fisura")}, {}).isOk());
        QVERIFY(refuseOverwritingInputs({"", at("new.tif")}, {"", at("model.fisura")}).isOk());
    }
};

QTEST_GUILESS_MAIN(TstPaths)
#include "tst_paths.moc"

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/chatrest/chat"
	"github.com/spf13/cobra"
)

// keywordListFlags are the flags of a keyword list's creation and
// replacement: the fields of its form.
type keywordListFlags struct {
	id, category, name, description string
	terms, sentences                []string
	file                            string
}

// add adds the flags to cmd; --id only when the list's id is not its
// argument (withID).
func (kf *keywordListFlags) add(cmd *cobra.Command, withID bool) {
	f := cmd.Flags()
	if withID {
		f.StringVar(&kf.id, "id", "", "the list's id, which rules refer to it by (required)")
	}
	f.StringVar(&kf.category, "category", "", "what the terms are: word, pattern or sentence-similarity (required)")
	f.StringVar(&kf.name, "name", "", "the list's name")
	f.StringVar(&kf.description, "description", "", "the list's description")
	f.StringSliceVar(&kf.terms, "search-terms", nil, "a word, or a regular expression of a pattern list (repeat or separate with commas)")
	f.StringArrayVar(&kf.sentences, "disallowed-sentences", nil, "a sentence of a sentence-similarity list, commas and all (repeat for each)")
	f.StringVar(&kf.file, "file", "", fmt.Sprintf("a CSV file of terms (or sentences) to upload, at most %d MiB", chat.MaxKeywordFileBytes>>20))
	_ = cmd.RegisterFlagCompletionFunc("category", cobra.FixedCompletions(
		[]string{string(chat.KeywordWord), string(chat.KeywordPattern), string(chat.KeywordSentenceSimilarity)}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.MarkFlagFilename("file", "csv")
}

// keywordListLong is what the help of a keyword list's creation and
// replacement says after what the command does.
var keywordListLong = fmt.Sprintf(`
The list is sent as a multipart/form-data form (the service takes no JSON
here). A word or pattern list needs --search-terms or --file, a
sentence-similarity list --disallowed-sentences or --file. A term may not hold
a comma (the terms go comma-separated in one field); each cell of the --file
CSV is a term, or a sentence. A file that cannot be read, is not a regular
file or is larger than %d MiB is a usage error (exit status 2), and nothing is
sent.`, chat.MaxKeywordFileBytes>>20)

// keywordListCmd returns the hand-written command of a keyword list's
// creation, or with update its replacement (the list's id is then the
// argument KEYWORD_ID), on the chat API or, with mgmt, on the management
// API's deprecated variant (the app of --app). It sends the list through
// the SDK's methods, which encode it as a multipart form.
func keywordListCmd(mgmt, update bool) func(*cli) *cobra.Command {
	return func(c *cli) *cobra.Command {
		var kf keywordListFlags
		use, long, nargs := "create-keyword-list --id ID", "Create a keyword list, which moderation rules refer to by its id.", 0
		if update {
			use, long, nargs = "update-keyword-list KEYWORD_ID", "Replace the keyword list KEYWORD_ID: its fields and terms become those given.", 1
		}
		if mgmt {
			long += "\nIt uses the management API's deprecated variant, on the app --app (default:\nthe app-id setting); chat moderation does the same on the chat API."
		}
		cmd := &cobra.Command{
			Use:  use + " --category CATEGORY (--search-terms TERM... | --disallowed-sentences SENTENCE... | --file CSV)",
			Long: long + "\n" + keywordListLong,
			Args: exactArgs(nargs),
			RunE: func(cmd *cobra.Command, args []string) error {
				file, err := kf.openFile()
				if err != nil {
					return err
				}
				u := &chat.UpdateKeywordListRequest{Category: chat.KeywordCategory(kf.category), Name: kf.name, Description: kf.description,
					SearchTerms: kf.terms, DisallowedSentences: kf.sentences}
				if file != nil {
					defer file.Close()
					u.File = &chat.KeywordFile{Name: filepath.Base(kf.file), Content: file}
				}
				var (
					create *chat.CreateKeywordListRequest
					id     string
				)
				if update {
					id = args[0]
				} else {
					create = &chat.CreateKeywordListRequest{ID: kf.id, Category: u.Category, Name: u.Name, Description: u.Description,
						SearchTerms: u.SearchTerms, DisallowedSentences: u.DisallowedSentences, File: u.File}
				}
				call, err := c.keywordListCall(cmd, mgmt, id, create, u)
				if err != nil {
					return err
				}
				// The SDK's method checks the request before sending it.
				var last lastAnswer
				if _, err := call(withAnswers(cmd.Context(), last.record)); err != nil {
					return keywordFlagError(err)
				}
				return c.showAnswer(nil, last.body)
			},
		}
		kf.add(cmd, !update)
		return cmd
	}
}

// keywordListCall returns the call that creates the list create or, when
// create is nil, replaces the list id with update: on the chat API, or
// (mgmt) on the management API's variant, for the app of --app.
func (c *cli) keywordListCall(cmd *cobra.Command, mgmt bool, id string, create *chat.CreateKeywordListRequest, update *chat.UpdateKeywordListRequest) (func(context.Context) (*chat.KeywordList, error), error) {
	if !mgmt {
		client, err := c.chatClient(cmd)
		if err != nil {
			return nil, err
		}
		if create == nil {
			return func(ctx context.Context) (*chat.KeywordList, error) {
				return client.Moderation.UpdateKeywordList(ctx, id, update)
			}, nil
		}
		return func(ctx context.Context) (*chat.KeywordList, error) {
			return client.Moderation.CreateKeywordList(ctx, create)
		}, nil
	}
	app, err := c.appFlag(cmd)
	if err != nil {
		return nil, err
	}
	mc, _, err := c.mgmtClient(cmd)
	if err != nil {
		return nil, err
	}
	if create == nil {
		return func(ctx context.Context) (*chat.KeywordList, error) {
			//lint:ignore SA1019 the command of the management API's deprecated variant
			return mc.Moderation.UpdateKeywordList(ctx, app, id, update)
		}, nil
	}
	return func(ctx context.Context) (*chat.KeywordList, error) {
		//lint:ignore SA1019 the command of the management API's deprecated variant
		return mc.Moderation.CreateKeywordList(ctx, app, create)
	}, nil
}

// openFile opens the CSV of --file, nil when none is given. A file that
// cannot be opened, is not a regular file, or is larger than the SDK sends
// ([chat.MaxKeywordFileBytes]) is a usage error.
func (kf *keywordListFlags) openFile() (*os.File, error) {
	if kf.file == "" {
		return nil, nil
	}
	f, err := os.Open(kf.file)
	if err != nil {
		return nil, usageErrorf("--file: %v", err)
	}
	info, err := f.Stat()
	switch {
	case err != nil:
		err = usageErrorf("--file: %v", err)
	case !info.Mode().IsRegular():
		err = usageErrorf("--file %s is not a regular file", kf.file)
	case info.Size() > chat.MaxKeywordFileBytes:
		err = usageErrorf("--file %s is larger than %d MiB (%d bytes), the most a keyword list's file may be", kf.file, chat.MaxKeywordFileBytes>>20, info.Size())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// keywordFields are the flags of the SDK's fields of a keyword list's
// request, as its errors name them.
var keywordFields = map[string]string{
	"req.ID": "--id", "req.Category": "--category", "req.SearchTerms": "--search-terms", "req.File.Content": "--file",
}

// keywordFlagError names the flag at fault in an error of the SDK's check
// of a keyword list's request, made before anything is sent: "--search-terms (term 2) must not contain a
// comma". Other errors are returned as they are.
func keywordFlagError(err error) error {
	var ae *chat.ArgumentError
	if !errors.As(err, &ae) {
		return err
	}
	field, index, indexed := strings.Cut(ae.Name, "[")
	flag, ok := keywordFields[field]
	if !ok {
		return err
	}
	if n, err := strconv.Atoi(strings.TrimSuffix(index, "]")); indexed && err == nil {
		return usageErrorf("%s (term %d) %s", flag, n+1, ae.Problem)
	}
	return usageErrorf("%s %s", flag, ae.Problem)
}

#!/usr/bin/env escript
%%! -env ERL_CRASH_DUMP_SECONDS 0
%% Erlang's UTF-8 decoding and encoding over utf8cert-protocol 2 (harness/PROTOCOL.md), one per
%% MODE (run as it is by escript; the startup is paid once, the program keeps running):
%%
%%   escript erlang_codecs.erl MODE
%%
%%   unicode     decode (strict): unicode:characters_to_list(Bin, utf8), refused where its
%%               {error, Good, Rest} or {incomplete, Good, Rest} leaves Rest; validate: whether
%%               it returns a list; incremental (strict): the Rest of an {incomplete, ...} put
%%               before the next chunk, as the function's documentation suggests for streams;
%%               encode: unicode:characters_to_binary(List), refused at its {error, Good, Rest}
%%   bitsyntax   decode (strict): <<C/utf8, Rest/binary>> matched in a loop, refused where no
%%               match; encode: <<C/utf8>> built per code point, refused where it raises badarg
%%
%% Each mode calls the runtime and reports what it says; nothing here reads UTF-8 itself.
%%
%% ERL_CRASH_DUMP_SECONDS 0 (the line above): utf8cert stops a program by killing its process
%% group, and the emulator, seeing its erl_child_setup helper die first, would write an
%% erl_crash.dump into the working directory of whoever ran the check.
-mode(compile).

main([Mode]) ->
    case capabilities(Mode) of
        undefined -> usage();
        Offered ->
            ok = io:setopts(standard_io, [binary]),
            io:put_chars(["utf8cert-protocol 2 ", Offered, "\n"]),
            loop(Mode)
    end;
main(_) ->
    usage().

usage() ->
    io:put_chars(standard_error, "usage: erlang_codecs.erl MODE (unicode, bitsyntax)\n"),
    halt(2).

capabilities("unicode") -> "decode validate encode incremental incremental=strict";
capabilities("bitsyntax") -> "decode encode";
capabilities(_) -> undefined.

loop(Mode) ->
    case io:get_line(standard_io, "") of
        eof -> halt(0);
        {error, _} -> halt(0);
        Line ->
            Trimmed = string:trim(Line, trailing, "\r\n"),
            [Id, Request] = case binary:split(Trimmed, <<" ">>) of
                                [I, R] -> [I, R];
                                [I] -> [I, <<>>]
                            end,
            io:put_chars([Id, " ", answer(Mode, Request), "\n"]),
            loop(Mode)
    end.

bytes_of(<<"-">>) -> <<>>;
bytes_of(Field) -> binary:decode_hex(Field).

code_points_of(Data) -> [C || <<C:32>> <= Data].

hex(<<>>) -> "-";
hex(Bytes) -> string:lowercase(binary:encode_hex(Bytes)).

ok_code_points(Values) -> ["ok ", hex(<< <<C:32>> || C <- Values >>)].

ok_bytes(Bytes) -> ["ok ", hex(Bytes)].

refused(Offset, Message) -> ["refused ", integer_to_list(Offset), " ", Message].

answer(Mode, Request) ->
    try
        [Operation | Fields] = binary:split(Request, <<" ">>, [global]),
        respond(Mode, Operation, Fields)
    catch
        Class:Reason -> ["crash ", io_lib:format("~p:~0p", [Class, Reason])]
    end.

respond("unicode", <<"decode">>, [Field]) ->
    Bin = bytes_of(Field),
    case unicode:characters_to_list(Bin, utf8) of
        List when is_list(List) -> ok_code_points(List);
        {Why, _Good, Rest} ->
            refused(byte_size(Bin) - byte_size(Rest),
                    ["unicode:characters_to_list returned {", atom_to_list(Why), ", Good, Rest}"])
    end;
respond("unicode", <<"validate">>, [Field]) ->
    case unicode:characters_to_list(bytes_of(Field), utf8) of
        List when is_list(List) -> "ok true";
        {_, _, _} -> "ok false"
    end;
respond("unicode", <<"encode">>, [Field]) ->
    Values = code_points_of(bytes_of(Field)),
    case unicode:characters_to_binary(Values) of
        Bin when is_binary(Bin) -> ok_bytes(Bin);
        {Why, _Good, Rest} ->
            refused(length(Values) - length(Rest),
                    ["unicode:characters_to_binary returned {", atom_to_list(Why), ", Good, Rest}"])
    end;
respond("unicode", <<"incremental">>, [_Final | Fields]) ->
    % F only says whether an empty final chunk follows: an empty chunk adds nothing, and what
    % is left incomplete at the end is refused either way.
    incremental([bytes_of(Field) || Field <- Fields], <<>>, 0, []);
respond("bitsyntax", <<"decode">>, [Field]) ->
    Bin = bytes_of(Field),
    match_utf8(Bin, byte_size(Bin), []);
respond("bitsyntax", <<"encode">>, [Field]) ->
    build_utf8(code_points_of(bytes_of(Field)), 0, []);
respond(_, Operation, _) ->
    ["crash unknown request ", Operation].

%% Carry is what was left incomplete, starting at offset Start of the whole input; Out holds
%% what the decoder returned so far, in reverse order of chunks.
incremental([], <<>>, _Start, Out) ->
    ok_code_points(lists:append(lists:reverse(Out)));
incremental([], _Carry, Start, _Out) ->
    refused(Start, "unicode:characters_to_list returned {incomplete, Good, Rest} at the end");
incremental([Chunk | Chunks], Carry, Start, Out) ->
    Data = <<Carry/binary, Chunk/binary>>,
    case unicode:characters_to_list(Data, utf8) of
        List when is_list(List) ->
            incremental(Chunks, <<>>, Start + byte_size(Data), [List | Out]);
        {incomplete, Good, Rest} ->
            Used = byte_size(Data) - byte_size(Rest),
            incremental(Chunks, Rest, Start + Used, [Good | Out]);
        {error, _Good, Rest} ->
            refused(Start + byte_size(Data) - byte_size(Rest),
                    "unicode:characters_to_list returned {error, Good, Rest}")
    end.

match_utf8(<<>>, _Size, Out) ->
    ok_code_points(lists:reverse(Out));
match_utf8(<<C/utf8, Rest/binary>>, Size, Out) ->
    match_utf8(Rest, Size, [C | Out]);
match_utf8(Rest, Size, _Out) ->
    refused(Size - byte_size(Rest), "no <<C/utf8, Rest/binary>> match").

build_utf8([], _At, Out) ->
    ok_bytes(iolist_to_binary(lists:reverse(Out)));
build_utf8([C | Values], At, Out) ->
    try <<C/utf8>> of
        Bytes -> build_utf8(Values, At + 1, [Bytes | Out])
    catch
        error:badarg -> refused(At, "<<C/utf8>> raised badarg")
    end.
